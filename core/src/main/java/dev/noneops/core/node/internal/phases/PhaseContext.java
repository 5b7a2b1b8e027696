package dev.noneops.core.node.internal.phases;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.config.AppliedConfigStore;
import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.layout.Layout;
import dev.noneops.core.node.NodeException;
import dev.noneops.core.node.Overrides;
import dev.noneops.core.node.Params;
import dev.noneops.core.node.internal.files.OwnershipStore;
import dev.noneops.core.node.internal.files.SharedFileWriter;
import dev.noneops.core.node.internal.render.NodeConfigWriter;
import dev.noneops.core.node.internal.stack.StackControl;
import dev.noneops.core.node.internal.task.HostCommands;
import dev.noneops.core.node.internal.task.NodeLock;
import dev.noneops.core.node.internal.task.Task;
import dev.noneops.core.node.internal.task.TaskRunner;
import dev.noneops.core.node.internal.version.VersionVerifier;
import dev.noneops.ports.HostPorts;
import java.io.IOException;
import java.util.concurrent.Callable;

/**
 * What the phases of one node share: its ports and overrides, its layout and host paths, its one
 * lock, the task runner it reports through, its unit control, commands and version verifier.
 */
public record PhaseContext(
    Params params,
    HostPorts ports,
    Overrides overrides,
    Layout layout,
    HostPaths paths,
    TaskRunner tasks,
    NodeLock lock,
    StackControl stack,
    HostCommands commands,
    VersionVerifier verifier) {

  public static PhaseContext of(Params params) {
    HostPorts ports = params.ports();
    Overrides overrides = params.overrides();
    Layout layout = overrides.layout();
    return new PhaseContext(
        params,
        ports,
        overrides,
        layout,
        overrides.hostPaths(),
        new TaskRunner(params.log(), params.events(), ports.clock(), overrides.parallelExecutor()),
        new NodeLock(ports.files(), layout, overrides.lockWait(), ports.clock(), ports.processes()),
        new StackControl(ports.systemd(), ports.probes(), ports.clock(), overrides.timeouts()),
        new HostCommands(ports.commands(), overrides.timeouts().command()),
        new VersionVerifier(ports.files(), layout));
  }

  /** The ownership record of the shared files this node writes. */
  public OwnershipStore ownership() {
    return new OwnershipStore(ports.files(), paths.ownershipRecord());
  }

  public NodeConfigWriter configWriter() {
    return new NodeConfigWriter(
        new SharedFileWriter(ports.files(), ownership()), paths, layout, verifier);
  }

  /** Records {@code config} as the node's applied configuration, as a task of its own. */
  public void recordApplied(AgentConfig config) {
    tasks.execute(Task.of(
        "record-applied-config", () -> new AppliedConfigStore(ports.files(), paths).write(config)));
  }

  /** Whether the node's layout directory is there: a node, or what is left of one, is installed. */
  public boolean hasLayout() {
    try {
      return ports.files().exists(layout.root());
    } catch (IOException e) {
      throw new NodeException("read " + layout.root() + ": " + e.getMessage(), e);
    }
  }

  /** Runs {@code body} as the task {@code operation} holding the node lock; returns its value. */
  @SuppressWarnings("try")
  public <T> T locked(String operation, Callable<T> body) {
    return tasks.call(operation, () -> {
      try (NodeLock.Hold hold = lock.acquire(operation)) {
        return body.call();
      }
    });
  }
}
