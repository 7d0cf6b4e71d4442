# cmake --install: headers, the libraries of every layer, the image-file
# module, the command-line tool and its man page, gpuhistConfig.cmake (targets gpuhist::gpuhist,
# gpuhist::io, gpuhist::view) and gpuhist.pc for pkg-config.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(gpuhist_layers gpuhist_core gpuhist_cpu gpuhist_vulkan gpuhist_count gpuhist_render
                   gpuhist_adjust gpuhist gpuhist_shader_interface)
foreach(layer IN LISTS gpuhist_layers)
  string(REGEX REPLACE "^gpuhist_?" "" name ${layer})
  if(name STREQUAL "")
    set(name gpuhist)
  endif()
  set_target_properties(${layer} PROPERTIES EXPORT_NAME ${name})
endforeach()
if(NOT GPUHIST_ENGINE_ONLY)
  set_target_properties(gpuhist_io PROPERTIES EXPORT_NAME io)
  set_target_properties(gpuhist_view PROPERTIES EXPORT_NAME view)
  list(APPEND gpuhist_layers gpuhist_io gpuhist_view)
endif()

install(TARGETS ${gpuhist_layers} EXPORT gpuhistTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/gpuhist DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT gpuhistTargets NAMESPACE gpuhist:: FILE gpuhistTargets.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/gpuhist)
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/gpuhistConfig.cmake.in
                              ${CMAKE_BINARY_DIR}/gpuhistConfig.cmake
                              INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/gpuhist)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/gpuhistConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/gpuhistConfig.cmake ${CMAKE_BINARY_DIR}/gpuhistConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/gpuhist)

# pkg-config: the engine (gpuhist) and the files (gpuhist-io). The prefix is
# found from the .pc file's own place, so a tree installed with --prefix works.
set(PC_PREFIX "\${pcfiledir}/..")
set(libdir_rest ${CMAKE_INSTALL_LIBDIR})
while(libdir_rest MATCHES "/")
  string(REGEX REPLACE "/[^/]*$" "" libdir_rest "${libdir_rest}")
  string(APPEND PC_PREFIX "/..")
endwhile()
string(APPEND PC_PREFIX "/..")
set(PC_LIBDIR "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
set(PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
configure_file(${CMAKE_CURRENT_LIST_DIR}/gpuhist.pc.in ${CMAKE_BINARY_DIR}/gpuhist.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/gpuhist.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
if(NOT GPUHIST_ENGINE_ONLY)
  configure_file(${CMAKE_CURRENT_LIST_DIR}/gpuhist-io.pc.in ${CMAKE_BINARY_DIR}/gpuhist-io.pc @ONLY)
  install(FILES ${CMAKE_BINARY_DIR}/gpuhist-io.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

  install(TARGETS gpuhist_app RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  # Where io/image_library.cpp looks for it (GPUHIST_INSTALL_FULL_LIBDIR).
  install(TARGETS gpuhist_images LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/gpuhist)
  # The man page, made from the tool's own help text.
  add_custom_command(
    OUTPUT ${CMAKE_BINARY_DIR}/gpuhist.1
    COMMAND ${CMAKE_COMMAND} -DGPUHIST=$<TARGET_FILE:gpuhist_app> -DOUT=${CMAKE_BINARY_DIR}/gpuhist.1
            -DVERSION=${PROJECT_VERSION} -P ${CMAKE_CURRENT_LIST_DIR}/ManPage.cmake
    DEPENDS gpuhist_app ${CMAKE_CURRENT_LIST_DIR}/ManPage.cmake
    COMMENT "Writing the man page from gpuhist's help"
    VERBATIM)
  add_custom_target(gpuhist_man ALL DEPENDS ${CMAKE_BINARY_DIR}/gpuhist.1)
  install(FILES ${CMAKE_BINARY_DIR}/gpuhist.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endif()
