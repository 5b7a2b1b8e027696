package dev.noneops.hostfs.commands;

import dev.noneops.ports.Errno;
import dev.noneops.ports.HostIOException;
import dev.noneops.ports.commands.Command;
import dev.noneops.ports.commands.CommandResult;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@link HostIOException} for a host program that ran and failed: the errno its error line
 * names ({@code RTNETLINK answers: File exists}, {@code Cannot find device}, {@code Module x not
 * found}, ...), and the line itself with the command as the detail.
 */
public final class CommandErrors {
  private static final Map<String, Errno> BY_WORDS = new LinkedHashMap<>();

  static {
    BY_WORDS.put("File exists", Errno.EEXIST);
    BY_WORDS.put("Cannot find device", Errno.ENODEV);
    BY_WORDS.put("does not exist", Errno.ENODEV);
    BY_WORDS.put("No such device", Errno.ENODEV);
    BY_WORDS.put("Unknown device type", Errno.EOPNOTSUPP);
    BY_WORDS.put("Operation not supported", Errno.EOPNOTSUPP);
    BY_WORDS.put("Operation not permitted", Errno.EPERM);
    BY_WORDS.put("Permission denied", Errno.EACCES);
    BY_WORDS.put("Device or resource busy", Errno.EBUSY);
    BY_WORDS.put("Invalid argument", Errno.EINVAL);
    BY_WORDS.put("not found", Errno.ENOENT);
    BY_WORDS.put("No such file or directory", Errno.ENOENT);
  }

  private CommandErrors() {}

  /** The error of {@code command}, run to do {@code operation} to {@code target}, that ended with {@code result}. */
  public static HostIOException of(
      String operation, String target, Command command, CommandResult result) {
    String stderr = result.stderr().strip();
    Errno errno = result.timedOut() ? Errno.ETIMEDOUT : errnoOf(stderr);
    String outcome = result.timedOut() ? "timed out" : "exited " + result.exitCode();
    return new HostIOException(
        errno,
        operation,
        target,
        "`" + command + "` " + outcome + (stderr.isEmpty() ? "" : ": " + stderr),
        null);
  }

  private static Errno errnoOf(String stderr) {
    for (Map.Entry<String, Errno> e : BY_WORDS.entrySet()) {
      if (stderr.contains(e.getKey())) {
        return e.getValue();
      }
    }
    return Errno.EOTHER;
  }
}
