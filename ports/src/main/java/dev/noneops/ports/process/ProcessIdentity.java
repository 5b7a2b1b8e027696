package dev.noneops.ports.process;

/**
 * A process told apart from any later one that reuses its pid within the same boot: its pid and
 * its start time ({@code /proc/<pid>/stat}'s {@code starttime}, clock ticks after boot). Across
 * boots the host's boot id ({@link dev.noneops.ports.host.HostFacts#bootId()}) tells them apart.
 *
 * @param pid the process id
 * @param startTime when it started, in clock ticks after boot
 */
public record ProcessIdentity(long pid, long startTime) {
  public ProcessIdentity {
    if (pid <= 0) {
      throw new IllegalArgumentException("pid must be positive: " + pid);
    }
    if (startTime < 0) {
      throw new IllegalArgumentException("start time must not be negative: " + startTime);
    }
  }
}
