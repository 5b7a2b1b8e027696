package dev.noneops.hostfs.nativeio;

import jnr.ffi.annotations.Out;

/**
 * The jnr-ffi binding to glibc's {@code statx(2)} wrapper, which jnr-posix does not expose. Public
 * only because jnr-ffi generates its implementation; use {@code dev.noneops.hostfs.mounts.StatxMountIds}.
 */
public interface LibcStatx {
  int statx(int dirfd, String path, int flags, int mask, @Out byte[] buffer);
}
