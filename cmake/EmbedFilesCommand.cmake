# gemmtune_embed_files(<output.cpp> FUNCTION <name> HEADER <header> BASE_DIR <dir> FILES <file>...)
# Adds a build step that writes <output.cpp>: the files as byte arrays (named by their paths
# relative to BASE_DIR, sorted) behind `std::span<const EmbeddedFile> gemmtune::<name>()`, which
# <header> declares. The step runs again when a file changes. Add <output.cpp> to a target.
set(GEMMTUNE_EMBED_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/EmbedFiles.cmake)
function(gemmtune_embed_files output)
  cmake_parse_arguments(PARSE_ARGV 1 embed "" "FUNCTION;HEADER;BASE_DIR" "FILES")
  list(SORT embed_FILES)
  string(REPLACE ";" "|" file_list "${embed_FILES}")  # a list survives the command line as one argument
  add_custom_command(
    OUTPUT ${output}
    COMMAND ${CMAKE_COMMAND} -DOUTPUT=${output} "-DINPUTS=${file_list}" -DBASE_DIR=${embed_BASE_DIR}
            -DFUNCTION=${embed_FUNCTION} -DHEADER=${embed_HEADER} -P ${GEMMTUNE_EMBED_SCRIPT}
    DEPENDS ${embed_FILES} ${GEMMTUNE_EMBED_SCRIPT}
    COMMENT "Embedding ${embed_FUNCTION}()"
    VERBATIM)
endfunction()
