package dev.noneops.core.task;

import java.util.List;
import java.util.Optional;

/**
 * A task failed with an error that is none of the typed {@link NoneopsException}s (an I/O error
 * of a port, a bug): the error is wrapped once, at the task where it happened. The message is
 * the error's own; {@link #taskPath()} says where, and the cause is the original error.
 */
public final class TaskFailedException extends NoneopsException {
  private static final long serialVersionUID = 1L;

  TaskFailedException(List<String> path, Throwable cause) {
    super(describe(cause), cause);
    locate(path);
  }

  /** The task that failed (the innermost name of the path). */
  public String failedTask() {
    return taskPath().get(taskPath().size() - 1);
  }

  /** The original error. */
  public Throwable rootError() {
    return getCause();
  }

  /** The first error of type {@code type} in {@code t}'s cause chain, {@code t} included. */
  public static <T extends Throwable> Optional<T> find(Throwable t, Class<T> type) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (type.isInstance(c)) {
        return Optional.of(type.cast(c));
      }
      if (c.getCause() == c) {
        break;
      }
    }
    return Optional.empty();
  }

  private static String describe(Throwable cause) {
    String message = cause.getMessage();
    return message == null || message.isBlank() ? cause.getClass().getSimpleName() : message;
  }
}
