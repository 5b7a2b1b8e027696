package dev.noneops.core.node;

import dev.noneops.core.node.NodeStatus.Pods;
import dev.noneops.ports.commands.Command;
import dev.noneops.ports.commands.CommandResult;
import dev.noneops.ports.commands.CommandRunner;
import dev.noneops.ports.time.HostClock;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * How many pods the node's containerd runs, asked of its own {@code ctr} within
 * {@link #BUDGET}: the running tasks of the {@code k8s.io} namespace, and the pods among them (the
 * running tasks of the pod sandboxes). Unknown, with why, when containerd is not active or
 * {@code ctr} does not answer in time.
 */
final class PodCounter {
  /** How long both {@code ctr} calls may take together. */
  static final Duration BUDGET = Duration.ofSeconds(1);

  private static final Duration LEAST = Duration.ofMillis(100);
  private static final String NAMESPACE = "k8s.io";
  private static final String SANDBOXES = "labels.\"io.cri-containerd.kind\"==sandbox";

  private final CommandRunner runner;
  private final HostClock clock;
  private final Path ctr;
  private final Path address;

  /**
   * @param ctr the node's {@code ctr} ({@code current/bin/ctr})
   * @param address the node's containerd socket
   */
  PodCounter(CommandRunner runner, HostClock clock, Path ctr, Path address) {
    this.runner = runner;
    this.clock = clock;
    this.ctr = ctr;
    this.address = address;
  }

  Pods count(boolean containerdActive) {
    if (!containerdActive) {
      return Pods.unknown("containerd is not active");
    }
    Instant deadline = clock.now().plus(BUDGET);
    try {
      CommandResult tasks = run(deadline, "tasks", "ls");
      if (!tasks.succeeded()) {
        return Pods.unknown(failure("tasks ls", tasks));
      }
      Set<String> running = runningTasks(tasks.stdout());
      CommandResult sandboxes = run(deadline, "containers", "ls", "-q", SANDBOXES);
      if (!sandboxes.succeeded()) {
        return new Pods(null, running.size(), failure("containers ls", sandboxes));
      }
      int pods = 0;
      for (String id : lines(sandboxes.stdout())) {
        if (running.contains(id)) {
          pods++;
        }
      }
      return new Pods(pods, running.size(), null);
    } catch (IOException e) {
      return Pods.unknown("ctr: " + e.getMessage());
    }
  }

  private CommandResult run(Instant deadline, String... args) throws IOException {
    Duration left = Duration.between(clock.now(), deadline);
    List<String> argv = new ArrayList<>(
        List.of(ctr.toString(), "--address", address.toString(), "--namespace", NAMESPACE));
    argv.addAll(List.of(args));
    return runner.run(
        Command.of(left.compareTo(LEAST) < 0 ? LEAST : left, argv.toArray(String[]::new)));
  }

  /** The IDs of {@code ctr tasks ls}'s rows ({@code TASK PID STATUS}) whose status is RUNNING. */
  private static Set<String> runningTasks(String table) {
    Set<String> ids = new HashSet<>();
    for (String line : lines(table)) {
      String[] columns = line.split("\\s+");
      if (columns.length >= 3 && columns[2].equals("RUNNING")) {
        ids.add(columns[0]);
      }
    }
    return ids;
  }

  private static List<String> lines(String text) {
    return text.lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
  }

  private static String failure(String what, CommandResult result) {
    if (result.timedOut()) {
      return "ctr " + what + " did not answer within " + BUDGET.toMillis() + " ms";
    }
    String stderr = result.stderr().strip();
    return "ctr " + what + " exited " + result.exitCode() + (stderr.isEmpty() ? "" : ": " + stderr);
  }
}
