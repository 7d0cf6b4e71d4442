# The library's layers (docs/ARCHITECTURE.md): each folder of src/ is one
# target, and its private headers are reached as "FOLDER/name.hpp" through a
# folder of the build tree that holds that layer alone (a link to src/FOLDER).
# A target therefore sees the headers of the layers it links and of no other:
# an include of a layer above, or beside, fails the build.
function(gpuhist_layer_headers target folder)
  set(root ${CMAKE_BINARY_DIR}/layers/${folder})
  file(MAKE_DIRECTORY ${root})
  if(NOT EXISTS ${root}/${folder})
    file(CREATE_LINK ${PROJECT_SOURCE_DIR}/src/${folder} ${root}/${folder} SYMBOLIC)
  endif()
  get_target_property(type ${target} TYPE)
  if(type STREQUAL "INTERFACE_LIBRARY")
    target_include_directories(${target} INTERFACE $<BUILD_INTERFACE:${root}>)
  else()
    target_include_directories(${target} PUBLIC $<BUILD_INTERFACE:${root}>)
  endif()
endfunction()

# add_library for one layer: FOLDER's sources, its headers as above, the
# warnings every target builds with, and the layers it may use (LINKS, public:
# a layer above sees what the layers below it see).
function(gpuhist_layer target folder)
  cmake_parse_arguments(ARG "" "" "SOURCES;LINKS;PRIVATE_LINKS" ${ARGN})
  add_library(${target} STATIC ${ARG_SOURCES})
  set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  gpuhist_layer_headers(${target} ${folder})
  # Build settings (warnings, exact float) are not part of the installed interface.
  set(private)
  foreach(lib IN LISTS ARG_PRIVATE_LINKS)
    if(lib MATCHES "^gpuhist_")
      list(APPEND private $<BUILD_INTERFACE:${lib}>)
    else()
      list(APPEND private ${lib})
    endif()
  endforeach()
  target_link_libraries(${target} PUBLIC ${ARG_LINKS}
                                  PRIVATE $<BUILD_INTERFACE:gpuhist_warnings> ${private})
  # The public headers are C++20: a consumer's target is raised to it.
  target_compile_features(${target} PUBLIC cxx_std_20)
endfunction()
