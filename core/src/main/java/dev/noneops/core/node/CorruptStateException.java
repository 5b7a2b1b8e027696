package dev.noneops.core.node;

import dev.noneops.core.NoneopsException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * A file of the node's upgrade state (the journal, the saved configuration, the rollback
 * history) exists but cannot be understood. Never ignored: acting on a guess could activate the
 * wrong version or restore the wrong files, so the operator is told which file is damaged.
 */
public class CorruptStateException extends NoneopsException {
  private static final long serialVersionUID = 1L;

  private final transient Path file;

  public CorruptStateException(Path file, String what, String reason, Throwable cause) {
    super(what + " " + Objects.requireNonNull(file, "file") + " is corrupt: " + reason, cause);
    this.file = file;
  }

  public CorruptStateException(Path file, String what, String reason) {
    this(file, what, reason, null);
  }

  /** The damaged file. */
  public Path file() {
    return file;
  }
}
