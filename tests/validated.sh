#!/bin/sh
# Runs a test program under the Khronos validation layer and fails when the
# layer reports any error, or is not installed (package vulkan-validationlayers).
# Usage: tests/validated.sh PROGRAM [ARGS...]
found=
for dir in /usr/share/vulkan/explicit_layer.d /usr/local/share/vulkan/explicit_layer.d \
  /etc/vulkan/explicit_layer.d; do
  [ -f "$dir/VkLayer_khronos_validation.json" ] && found=1
done
if [ -z "$found" ]; then
  echo "validated.sh: the Khronos validation layer is not installed (vulkan-validationlayers)" >&2
  exit 1
fi
log=$(mktemp) || exit 1
VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation "$@" >"$log" 2>&1
status=$?
cat "$log"
if grep -q "Validation Error" "$log"; then
  echo "validated.sh: the validation layer reported errors (above)" >&2
  status=1
fi
rm -f "$log"
exit $status
