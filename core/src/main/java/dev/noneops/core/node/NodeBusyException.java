package dev.noneops.core.node;

import dev.noneops.core.NoneopsException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Another process holds the node's lock: a mutating operation is already running (an upgrade, a
 * recovery, a prune, a reconfiguration). Nothing was changed; retry once it finished.
 */
public class NodeBusyException extends NoneopsException {
  private static final long serialVersionUID = 1L;

  private final transient Path lockFile;
  private final String operation;

  public NodeBusyException(Path lockFile, String operation) {
    this(
        lockFile,
        operation,
        "node busy: cannot " + operation + " because another process holds " + lockFile
            + " (an upgrade, recovery, prune or reconfiguration is running); nothing was changed, retry when it has finished");
  }

  /**
   * A node whose lock {@code holder} (its pid and command, or "another process") kept it,
   * after waiting {@code waited} (zero: refused at once).
   */
  public NodeBusyException(Path lockFile, String operation, String holder, Duration waited) {
    this(
        lockFile,
        operation,
        "node busy: cannot " + operation + " because " + holder + " holds " + lockFile
            + (waited.isZero() ? "" : " (waited " + seconds(waited) + ")")
            + "; nothing was changed, retry when it has finished");
  }

  /** {@code 60s}, {@code 1.5s}: a wait as a line says it. */
  public static String seconds(Duration d) {
    long millis = d.toMillis();
    return millis % 1000 == 0 ? millis / 1000 + "s" : millis / 1000.0 + "s";
  }

  /** A busy node whose {@code message} says by what. */
  public NodeBusyException(Path lockFile, String operation, String message) {
    super(message);
    this.lockFile = lockFile;
    this.operation = operation;
  }

  public Path lockFile() {
    return lockFile;
  }

  /** The operation that was refused. */
  public String operation() {
    return operation;
  }
}
