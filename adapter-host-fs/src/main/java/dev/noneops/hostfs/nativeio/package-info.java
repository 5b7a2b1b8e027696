/** The native seam: the few POSIX calls made through jnr-posix and jnr-ffi, each failing with an exact errno. */
package dev.noneops.hostfs.nativeio;
