/* lint/engine/language.h -- whether a compile command compiles C++: its
 * driver (g++, clang++, c++), an explicit -x, a -std=c++/gnu++ standard
 * or the input's extension, in that order of authority. */
#ifndef EL_LANGUAGE_H
#define EL_LANGUAGE_H

#include <stdbool.h>
#include <stddef.h>

/* C++ by its name: .cpp .cc .cxx .c++ .C, headers .hpp .hh .hxx .h++. */
bool el_path_is_cxx(const char *path);
/* A header by its name: .h and the C++ header extensions. */
bool el_path_is_header(const char *path);
/* A translation unit by its name: .c, or a C++ source (.cpp .cc ...). */
bool el_path_is_unit(const char *path);

/* A header of C++'s kind, as #include names it: without an extension
 * (<cmath>, <vector>; C's end in .h). */
bool el_is_cxx_std_header(const char *name);

/* driver: argv[0] of the command (may be NULL); args: the rest; file: the
 * input. */
bool el_command_is_cxx(const char *driver, char *const *args, size_t n, const char *file);
/* The language the arguments name for the input: the last -x's value
 * (the input comes last), NULL when they name none. */
const char *el_args_language(char *const *args, size_t n);
/* The language the arguments parse a file in: "c" or "c++" (a header
 * of either counts as it), from the last -x, else from the file's name
 * (name_is_cxx: compile databases give a .c file a C++ driver builds -x
 * c++); NULL for another (Objective-C, CUDA...). */
const char *el_parse_language(bool name_is_cxx, char *const *args, size_t n);
/* A -x value of the C++ family (c++, c++-header, objective-c++, cuda,
 * hip): C++ standards apply. */
bool el_language_is_cxx(const char *x);
/* The arguments say the language themselves (-x ...). */
bool el_args_have_language(char *const *args, size_t n);

#endif
