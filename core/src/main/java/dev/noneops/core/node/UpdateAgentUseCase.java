package dev.noneops.core.node;

import dev.noneops.core.config.RootOnlyPath;
import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.node.internal.phases.InstallAgentPhase;
import dev.noneops.core.node.internal.phases.PhaseContext;
import dev.noneops.core.node.internal.preflight.AgentFilesCheck;
import dev.noneops.core.node.internal.task.Task;
import dev.noneops.core.node.internal.task.TaskRunner;
import dev.noneops.ports.files.FileMeta;
import java.io.IOException;
import java.util.Optional;

/**
 * {@link Node#updateAgent()} as its task list, under one hold of the node lock: check the agent's
 * files, install the build, and restart the daemon on it when it changed. Nothing of the stack,
 * its version or its configuration is touched.
 */
final class UpdateAgentUseCase {
  private final Node node;
  private final PhaseContext parts;
  private final TaskRunner tasks;

  UpdateAgentUseCase(Node node) {
    this.node = node;
    this.parts = node.parts();
    this.tasks = parts.tasks();
  }

  AgentUpdate run() {
    AgentSetup agent = node.parts()
        .params()
        .agent()
        .orElseThrow(() -> new IllegalStateException("no agent build to install: Params.agent"));
    return parts.locked("update-agent", () -> {
      node.version()
          .orElseThrow(() -> new NodeAbsentException(parts.layout().current(), "update-agent"));
      if (!hasAgent()) {
        return AgentUpdate.NO_AGENT;
      }
      tasks.execute(Task.of(
          "check-agent-files",
          () -> AgentFilesCheck.requireRootOnly(new RootOnlyPath(parts.ports().files()), agent)));
      InstallAgentPhase phase = new InstallAgentPhase(parts);
      boolean changed = tasks.call("install-agent", () -> phase.run(agent));
      tasks.execute(Task.of("start-agent", () -> phase.startDaemon(changed)));
      return changed ? AgentUpdate.INSTALLED : AgentUpdate.UNCHANGED;
    });
  }

  /** Whether the node was bootstrapped with its agent: the daemon's unit is there. */
  private boolean hasAgent() throws IOException {
    Optional<FileMeta> unit = parts.ports().files().lstat(parts.paths().unit(HostPaths.AGENT_UNIT));
    return unit.isPresent() && unit.get().isRegularFile();
  }
}
