package dev.noneops.hostfs.nativeio;

/**
 * The jnr-ffi binding to libc's {@code umount2(2)}, which jnr-posix does not expose. Public only
 * because jnr-ffi generates its implementation; use {@link Umount2}.
 */
public interface LibcUmount {
  int umount2(String target, int flags);
}
