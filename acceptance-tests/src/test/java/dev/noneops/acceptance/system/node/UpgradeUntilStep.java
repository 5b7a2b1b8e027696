package dev.noneops.acceptance.system.node;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.config.AgentConfigParser;
import dev.noneops.core.node.Node;
import dev.noneops.ports.HostPorts;
import dev.noneops.ports.events.NodeEvent;
import dev.noneops.systemd.DbusSystemd;
import dev.noneops.testkit.fixtures.system.SandboxHostPorts;
import dev.noneops.testkit.fixtures.system.SandboxNodes;
import dev.noneops.testkit.fixtures.system.SandboxRoot;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * An agent process for crash tests: runs {@code Node.upgrade()} against a sandboxed systemd with
 * the real adapters and, the moment the named upgrade task has completed, prints
 * {@value #REACHED} and the task's name on stdout and stops making progress, so the parent can
 * SIGKILL it at exactly that point. The work done so far is whatever the real adapters made
 * durable; the kill leaves the node lock to the kernel (released with the process).
 *
 * <p>Arguments: the sandbox's PID 1 (host pid), the target configuration file, the previous
 * (applied) configuration file, the task after which to stop (e.g. {@code upgrade-write-journal},
 * {@code upgrade-switch-current}), the kubelet readiness bound in seconds. Exit codes: 2 bad
 * arguments, 3 the upgrade ended without reaching the task, 4 it failed before.
 */
public final class UpgradeUntilStep {
  /** What the process prints when it has reached the task and waits to be killed. */
  public static final String REACHED = "REACHED ";

  private UpgradeUntilStep() {}

  public static void main(String[] args) throws Exception {
    PrintStream out = System.out;
    if (args.length != 5) {
      System.err.println(
          "usage: UpgradeUntilStep <sandbox-pid> <config.json> <previous.json> <task> <kubelet-seconds>");
      System.exit(2);
    }
    SandboxRoot root = new SandboxRoot(Long.parseLong(args[0]));
    String task = args[3];
    Duration kubelet = Duration.ofSeconds(Long.parseLong(args[4]));
    try (DbusSystemd systemd = DbusSystemd.connect(root.busAddress())) {
      HostPorts ports = SandboxHostPorts.create(root, systemd);
      String arch = ports.facts().read().arch();
      AgentConfig config =
          AgentConfigParser.parseAndValidate(Files.readAllBytes(Path.of(args[1])), arch);
      AgentConfig previous =
          AgentConfigParser.parseAndValidate(Files.readAllBytes(Path.of(args[2])), arch);
      Node node =
          SandboxNodes.node(ports, Optional.of(config), Optional.of(previous), kubelet, event -> {
            if (event.kind() == NodeEvent.Kind.COMPLETED && event.task().equals(task)) {
              out.println(REACHED + task);
              out.flush();
              waitToBeKilled();
            }
          });
      try {
        node.upgrade();
      } catch (RuntimeException e) {
        System.err.println("the upgrade failed before " + task + ": " + e);
        System.exit(4);
      }
      System.err.println("the upgrade finished without a task named " + task);
      System.exit(3);
    }
  }

  private static void waitToBeKilled() {
    while (true) {
      try {
        Thread.sleep(Long.MAX_VALUE);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting to be killed", e);
      }
    }
  }
}
