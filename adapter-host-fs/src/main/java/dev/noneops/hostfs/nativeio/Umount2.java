package dev.noneops.hostfs.nativeio;

import dev.noneops.ports.HostIOException;
import java.nio.file.Path;
import jnr.ffi.LibraryLoader;
import jnr.ffi.Runtime;

/** {@code umount2(2)} through a small jnr-ffi binding, with the kernel's errno on failure. */
public final class Umount2 {

  /** {@code MNT_FORCE}. */
  public static final int MNT_FORCE = 1;
  /** {@code MNT_DETACH}. */
  public static final int MNT_DETACH = 2;
  /** {@code UMOUNT_NOFOLLOW}. */
  public static final int UMOUNT_NOFOLLOW = 8;

  private final LibcUmount libc;
  private final Runtime runtime;
  private final Syscalls syscalls;

  private Umount2(LibcUmount libc, Syscalls syscalls) {
    this.libc = libc;
    this.runtime = Runtime.getRuntime(libc);
    this.syscalls = syscalls;
  }

  /** Binds libc; fails loudly when the native library cannot be loaded. */
  public static Umount2 load() {
    Syscalls syscalls = Syscalls.load();
    LibcUmount libc = LibraryLoader.create(LibcUmount.class).load("c");
    return new Umount2(libc, syscalls);
  }

  /** Unmounts {@code target} with the given {@code umount2} flags. */
  public void umount(Path target, int flags) throws HostIOException {
    int rc = libc.umount2(target.toString(), flags);
    if (rc != 0) {
      // errno is meaningful only after a failure: it may hold a stale value after success.
      throw syscalls.failure(runtime.getLastError(), "umount2", target.toString());
    }
  }
}
