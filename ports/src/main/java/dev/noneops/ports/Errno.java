package dev.noneops.ports;

/**
 * The POSIX error numbers the ports report. Adapters translate the kernel's errno into one of
 * these; the simulated host raises the same values, so core reacts identically to both.
 */
public enum Errno {
  EPERM(1),
  ENOENT(2),
  ESRCH(3),
  EINTR(4),
  EIO(5),
  EBADF(9),
  EAGAIN(11),
  ENOMEM(12),
  EACCES(13),
  EBUSY(16),
  EEXIST(17),
  EXDEV(18),
  ENODEV(19),
  ENOTDIR(20),
  EISDIR(21),
  EINVAL(22),
  EMFILE(24),
  ENOSPC(28),
  EROFS(30),
  ENAMETOOLONG(36),
  ENOTEMPTY(39),
  ELOOP(40),
  EOPNOTSUPP(95),
  ETIMEDOUT(110),
  ECONNREFUSED(111),
  /** Any errno this enum does not name; the original number is kept by {@link HostIOException}. */
  EOTHER(-1);

  private final int number;

  Errno(int number) {
    this.number = number;
  }

  /** The Linux errno number, or -1 for {@link #EOTHER}. */
  public int number() {
    return number;
  }

  /** The constant for a Linux errno number; {@link #EOTHER} when it is not one of ours. */
  public static Errno of(int number) {
    for (Errno e : values()) {
      if (e.number == number) {
        return e;
      }
    }
    return EOTHER;
  }
}
