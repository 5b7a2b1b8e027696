package dev.noneops.core.task;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A task failed. The message is the chain of task names down to the one that failed, followed by
 * the original error, e.g. {@code serial(configure, start): start-kubelet: kubelet.service: start
 * failed}; the cause is the original error, so callers can still find a typed one with
 * {@link #find}.
 */
public final class TaskFailedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final List<String> chain;

  TaskFailedException(List<String> chain, Throwable cause) {
    super(String.join(": ", chain) + ": " + describe(cause), cause);
    this.chain = List.copyOf(chain);
  }

  /** The task names from the outermost composite down to the task that failed. */
  public List<String> chain() {
    return chain;
  }

  /** The task that failed (the innermost name of the chain). */
  public String failedTask() {
    return chain.get(chain.size() - 1);
  }

  /** The original error, below every task wrapper. */
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

  /** A failure of {@code task}: an existing chain gets the name prepended. */
  static TaskFailedException wrap(String task, Throwable error) {
    if (error instanceof TaskFailedException failed) {
      List<String> chain = new ArrayList<>();
      chain.add(task);
      chain.addAll(failed.chain);
      return new TaskFailedException(chain, failed.getCause());
    }
    return new TaskFailedException(List.of(task), error);
  }

  private static String describe(Throwable cause) {
    String message = cause.getMessage();
    return message == null || message.isBlank() ? cause.getClass().getSimpleName() : message;
  }
}
