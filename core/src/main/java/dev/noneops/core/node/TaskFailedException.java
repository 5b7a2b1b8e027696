package dev.noneops.core.node;

import dev.noneops.core.NoneopsException;
import java.util.List;

/**
 * A task failed with an error that is none of the typed {@link NoneopsException}s (an I/O error
 * of a port, a bug): the error is wrapped once, at the task where it happened. The message is
 * the error's own; {@link #taskPath()} says where, and the cause is the original error.
 */
public final class TaskFailedException extends NoneopsException {
  private static final long serialVersionUID = 1L;

  public TaskFailedException(List<String> path, Throwable cause) {
    super(describe(cause), cause);
    locate(this, path);
  }

  /** The task that failed (the innermost name of the path). */
  public String failedTask() {
    return taskPath().get(taskPath().size() - 1);
  }

  private static String describe(Throwable cause) {
    String message = cause.getMessage();
    return message == null || message.isBlank() ? cause.getClass().getSimpleName() : message;
  }

  /** Records where {@code failure} failed (see {@link NoneopsException#locate}). */
  public static void locateAt(NoneopsException failure, List<String> path) {
    locate(failure, path);
  }
}
