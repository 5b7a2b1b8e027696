package dev.noneops.core;

import java.util.List;
import java.util.Optional;

/**
 * The root of every failure a caller of a node or teardown operation can act on. Subtypes say
 * what went wrong ({@code NodeBusyException}, {@code ReadinessTimeoutException},
 * {@code InstallException}, ...); the task runner records where, once: {@link #taskPath()} names
 * the tasks from the outermost down to the one that failed, and the runner rethrows the error
 * itself, so {@code catch (NodeBusyException e)} works for every operation. A failure that is not
 * one of these types reaches the caller once wrapped, as a {@link TaskFailedException}.
 */
public abstract class NoneopsException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** What {@link #failedAt()} puts between the names of the tasks. */
  public static final String PATH_SEPARATOR = " › ";

  private List<String> taskPath = List.of();

  protected NoneopsException(String message) {
    super(message);
  }

  /** A failure caused by {@code cause}; when that one was located in a task, this one failed there too. */
  protected NoneopsException(String message, Throwable cause) {
    super(message, cause);
    if (cause instanceof NoneopsException located) {
      taskPath = located.taskPath;
    }
  }

  /** The names of the tasks from the outermost down to the one that failed; empty outside any task. */
  public final List<String> taskPath() {
    return taskPath;
  }

  /** The task path as an operator reads it, e.g. {@code start › wait-kubelet}; empty outside any task. */
  public final Optional<String> failedAt() {
    return taskPath.isEmpty()
        ? Optional.empty()
        : Optional.of(String.join(PATH_SEPARATOR, taskPath));
  }

  /**
   * The failure as an operator reads it on one line: where it failed ({@code failed at
   * start › wait-kubelet: }) and what went wrong. Subtypes whose message already names the
   * place return their message.
   */
  public String operatorMessage() {
    return failedAt().map(at -> "failed at " + at + ": ").orElse("") + getMessage();
  }

  /**
   * Records where {@code failure} failed, the first time a task sees it; a located failure keeps
   * its place. The task runner of core calls it; a subtype has no reason to.
   */
  protected static void locate(NoneopsException failure, List<String> path) {
    if (failure.taskPath.isEmpty()) {
      failure.taskPath = List.copyOf(path);
    }
  }
}
