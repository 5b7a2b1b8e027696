package dev.noneops.hostfs.mounts;

import dev.noneops.hostfs.nativeio.LibcStatx;
import dev.noneops.hostfs.nativeio.Syscalls;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Objects;
import jnr.ffi.LibraryLoader;
import jnr.ffi.Runtime;

/**
 * Mount ids straight from the kernel: {@code statx(2)} with {@code STATX_MNT_ID} (Linux 5.8+)
 * reports the id of the mount a path is on, the same id as field 1 of mountinfo, in one system
 * call and without any path arithmetic. Where the kernel or C library lacks it, the fallback
 * (reading the mount table) answers instead.
 */
public final class StatxMountIds implements MountIdSource {

  private static final int AT_FDCWD = -100;
  private static final int AT_SYMLINK_NOFOLLOW = 0x100;
  private static final int STATX_MNT_ID = 0x1000;
  private static final int STATX_SIZE = 256;
  private static final int STX_MASK_OFFSET = 0;
  private static final int STX_MNT_ID_OFFSET = 144;
  private static final int ENOSYS = 38;

  private final LibcStatx libc;
  private final Runtime runtime;
  private final Syscalls syscalls;
  private final MountIdSource fallback;
  private volatile boolean kernelReportsMountIds = true;

  private StatxMountIds(LibcStatx libc, Syscalls syscalls, MountIdSource fallback) {
    this.libc = libc;
    this.runtime = libc == null ? null : Runtime.getRuntime(libc);
    this.syscalls = syscalls;
    this.fallback = Objects.requireNonNull(fallback, "fallback");
  }

  /** Binds {@code statx}; when the C library has none, every lookup goes to {@code fallback}. */
  public static StatxMountIds load(MountIdSource fallback) {
    Syscalls syscalls = Syscalls.load();
    LibcStatx libc;
    try {
      libc = LibraryLoader.create(LibcStatx.class).failImmediately().load("c");
    } catch (UnsatisfiedLinkError e) {
      libc = null;
    }
    return new StatxMountIds(libc, syscalls, fallback);
  }

  /** Whether lookups come from {@code statx} (false: from the fallback). */
  public boolean usesStatx() {
    return libc != null && kernelReportsMountIds;
  }

  @Override
  public long mountIdOf(Path path) throws IOException {
    if (!usesStatx()) {
      return fallback.mountIdOf(path);
    }
    byte[] buffer = new byte[STATX_SIZE];
    int rc = libc.statx(AT_FDCWD, path.toString(), AT_SYMLINK_NOFOLLOW, STATX_MNT_ID, buffer);
    if (rc != 0) {
      int errno = runtime.getLastError();
      if (errno == ENOSYS) {
        kernelReportsMountIds = false;
        return fallback.mountIdOf(path);
      }
      throw syscalls.failure(errno, "statx", path.toString());
    }
    ByteBuffer stx = ByteBuffer.wrap(buffer).order(ByteOrder.nativeOrder());
    if ((stx.getInt(STX_MASK_OFFSET) & STATX_MNT_ID) == 0) {
      kernelReportsMountIds = false; // before Linux 5.8 the field stays unset
      return fallback.mountIdOf(path);
    }
    return stx.getLong(STX_MNT_ID_OFFSET);
  }
}
