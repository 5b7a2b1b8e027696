package dev.noneops.core.node;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.node.internal.files.DisownedSince;
import dev.noneops.core.node.internal.phases.PhaseContext;
import dev.noneops.core.node.internal.phases.StartPhase;
import java.nio.file.Path;
import java.util.List;

/**
 * {@link Node#apply()} as its task list, under one hold of the node lock: refuse a configuration
 * that needs another version, configure, restart what changed and start what does not run, wait
 * for kubelet, and only then record the configuration as applied.
 */
final class ApplyUseCase {
  private final Node node;
  private final PhaseContext parts;

  ApplyUseCase(Node node) {
    this.node = node;
    this.parts = node.parts();
  }

  ApplyResult run() {
    AgentConfig config =
        node.effectiveConfig().orElseThrow(() -> new NotConfiguredException("applying"));
    return parts.locked("apply", () -> {
      String active = node.version()
          .orElseThrow(() -> new NodeAbsentException(parts.layout().current(), "apply"));
      String wanted = node.goalState().rootFs().versionName();
      if (!wanted.equals(active)) {
        throw new VersionChangeRefusedException(wanted, active);
      }
      boolean wasRunning = node.running();
      DisownedSince disowning =
          DisownedSince.now(parts.ownership(), parts.params().log());
      ConfigureResult changes = node.configure();
      List<Path> disowned = disowning.newlyDisowned();
      StartPhase.StackChanges done = parts.locked(
          "start", () -> new StartPhase(parts).apply(node.goalState(), changes.files()));
      node.recordApplied(config);
      return new ApplyResult(
          active, wasRunning, changes, node.running(), done.restarted(), done.started(), disowned);
    });
  }
}
