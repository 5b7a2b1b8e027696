package dev.noneops.core.node;

import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.node.Params.NodeTeardown;
import dev.noneops.core.node.internal.task.Task;
import dev.noneops.ports.systemd.UnitStatus;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The isolation backend of a none node: the generic lifecycle (prepare, start, stop, status,
 * destroy) with the node's phases injected. Stop and status work without a configuration;
 * destroy delegates to the {@link NodeTeardown} given in {@link Params#teardown()}, or to the
 * node's own teardown.
 */
public final class NodeBackend {
  private final Node node;

  NodeBackend(Node node) {
    this.node = Objects.requireNonNull(node, "node");
  }

  /** What the backend reports about the node. */
  public record Status(Optional<String> version, boolean running, Map<String, UnitStatus> units) {
    public Status {
      Objects.requireNonNull(version, "version");
      units = Map.copyOf(units);
    }
  }

  public NodeRoot prepare() {
    return node.prepare();
  }

  /** Brings a stopped stack up: {@link Node#start(boolean, ConfigureResult)} as not running. */
  public void start() {
    node.start(false, ConfigureResult.UNCHANGED);
  }

  public void stop() {
    node.stop();
  }

  public Status status() {
    Map<String, UnitStatus> units = new LinkedHashMap<>();
    for (String unit : HostPaths.STACK_UNITS) {
      units.put(unit, node.parts().params().ports().systemd().status(unit));
    }
    return new Status(
        node.version(), units.values().stream().allMatch(UnitStatus::isActive), units);
  }

  /**
   * Removes the node: through {@link Params#teardown()} when one was given, else through the
   * node's own {@link Node#teardown()} in the reset order, which shares the node's lock (so a
   * caller that holds it is not refused as busy).
   */
  public void destroy() {
    NodeTeardown teardown = node.parts().params().teardown().orElse(() -> {
      TeardownResult report = TeardownResult.of(node.teardown().steps().removeAll());
      if (!report.complete()) {
        throw new TeardownIncompleteException("destroy", report);
      }
    });
    node.parts().tasks().execute(Task.of("destroy", teardown::destroy));
  }
}
