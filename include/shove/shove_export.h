/*
 * shove_export.h: the SHOVE_API symbol-visibility macro.
 *
 * The library is compiled with hidden visibility; SHOVE_API marks the public
 * functions. Define SHOVE_SHARED when linking against a shared (DLL) build on
 * Windows; on ELF and Mach-O nothing needs defining.
 */
#ifndef SHOVE_EXPORT_H
#define SHOVE_EXPORT_H

#if defined(_WIN32) && defined(SHOVE_SHARED)
#if defined(SHOVE_BUILDING)
#define SHOVE_API __declspec(dllexport)
#else
#define SHOVE_API __declspec(dllimport)
#endif
#elif defined(__GNUC__) || defined(__clang__)
#define SHOVE_API __attribute__((visibility("default")))
#else
#define SHOVE_API
#endif

#endif /* SHOVE_EXPORT_H */
