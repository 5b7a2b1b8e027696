package dev.noneops.core.node.internal.task;

import java.util.Objects;

/**
 * One named step of a node operation. Names are kebab-case ({@code configure-containerd}) and
 * appear in logs, events and in the chain of a failure's message.
 */
public interface Task {

  /** The task's name, e.g. {@code start-kubelet}; composites name their children. */
  public String name();

  /** Does the work. Any exception fails the task. */
  public void run() throws Exception;

  /** A task from a name and a body. */
  public static Task of(String name, Body body) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(body, "body");
    if (name.isBlank()) {
      throw new IllegalArgumentException("a task needs a name");
    }
    return new Task() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public void run() throws Exception {
        body.run();
      }

      @Override
      public String toString() {
        return name;
      }
    };
  }

  /** The body of a task built with {@link #of}. */
  @FunctionalInterface
  public interface Body {
    void run() throws Exception;
  }
}
