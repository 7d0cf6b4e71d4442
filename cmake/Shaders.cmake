# Compiles GLSL shaders with glslangValidator at build time and embeds the
# SPIR-V as constexpr arrays in one generated header per shader
# (<build>/generated/TARGET/shaders/NAME_spv.hpp, namespace gpuhist::spirv,
# array NAME), seen by TARGET alone: each layer embeds its own shaders.
find_program(GLSLANG_VALIDATOR glslangValidator REQUIRED)

function(gpuhist_add_shaders target)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPENDS" ${ARGN})
  set(out_dir ${CMAKE_BINARY_DIR}/generated/${target}/shaders)
  file(MAKE_DIRECTORY ${out_dir})
  set(headers)
  foreach(src IN LISTS ARG_SOURCES)
    get_filename_component(abs ${src} ABSOLUTE)
    get_filename_component(name ${src} NAME)
    string(REPLACE "." "_" ident ${name})
    set(header ${out_dir}/${ident}_spv.hpp)
    add_custom_command(
      OUTPUT ${header}
      COMMAND ${GLSLANG_VALIDATOR} --quiet --target-env vulkan1.2 -Os
              --vn ${ident} -o ${header}.inc ${abs}
      COMMAND ${CMAKE_COMMAND} -DINC=${header}.inc -DOUT=${header} -DIDENT=${ident}
              -P ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/EmbedSpirv.cmake
      DEPENDS ${abs} ${ARG_DEPENDS} ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/EmbedSpirv.cmake
      COMMENT "Compiling shader ${name}"
      VERBATIM)
    list(APPEND headers ${header})
  endforeach()
  add_custom_target(${target}_spirv DEPENDS ${headers})
  add_dependencies(${target} ${target}_spirv)
  target_include_directories(${target} PRIVATE ${CMAKE_BINARY_DIR}/generated/${target})
endfunction()
