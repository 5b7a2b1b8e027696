package dev.noneops.core.node;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.config.RootOnlyPath;
import dev.noneops.core.goalstate.MachineGoalState;
import dev.noneops.core.node.internal.phases.ActivateVersionPhase;
import dev.noneops.core.node.internal.phases.InstallAgentPhase;
import dev.noneops.core.node.internal.phases.InstallVersionPhase;
import dev.noneops.core.node.internal.phases.KernelTuningPhase;
import dev.noneops.core.node.internal.phases.PhaseContext;
import dev.noneops.core.node.internal.phases.WriteUnitsPhase;
import dev.noneops.core.node.internal.preflight.AgentFilesCheck;
import dev.noneops.core.node.internal.preflight.SysctlsCheck;
import dev.noneops.core.node.internal.task.NodeLock;
import dev.noneops.core.node.internal.task.Task;
import dev.noneops.core.node.internal.task.TaskRunner;
import dev.noneops.core.node.internal.teardown.TeardownSteps;
import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * {@link Node#bootstrap(boolean)} as its task list: check the agent's files, preflight, then under
 * the lock install and verify the version (leaving no trace when that fails), install the agent,
 * load the kernel modules, record the host's CNI entries, write the units, activate the version,
 * write the configuration and the sysctls, start the stack, record the applied configuration and
 * start the agent.
 */
final class BootstrapUseCase {
  private final Node node;
  private final PhaseContext parts;
  private final TaskRunner tasks;

  BootstrapUseCase(Node node) {
    this.node = node;
    this.parts = node.parts();
    this.tasks = parts.tasks();
  }

  @SuppressWarnings("try")
  BootstrapResult run(boolean tuneKernel) {
    AgentConfig config =
        node.effectiveConfig().orElseThrow(() -> new NotConfiguredException("bootstrapping"));
    Optional<AgentSetup> agentSetup = node.parts().params().agent();
    return tasks.call("bootstrap", () -> {
      if (agentSetup.isPresent()) {
        tasks.execute(Task.of("check-agent-files", () -> requireRootOnly(agentSetup.get())));
      }
      MachineGoalState goal = node.goalState();
      PreflightReport preflight = tasks.call("preflight", () -> {
        PreflightReport report = node.preflight(tuneKernel);
        if (!report.passed()) {
          throw new PreflightFailedException(report);
        }
        return report;
      });
      try (NodeLock.Hold hold = parts.lock().acquireCreatingLayout("bootstrap")) {
        prepareOrLeaveNoTrace(goal);
        KernelTuningPhase kernel = new KernelTuningPhase(parts);
        ActivateVersionPhase activate = new ActivateVersionPhase(parts);
        String version = goal.rootFs().versionName();
        tasks.execute(Task.of("check-version", () -> activate.requireComplete(version)));
        InstallAgentPhase agent = new InstallAgentPhase(parts);
        boolean agentChanged = agentSetup.isPresent()
            && tasks.call("install-agent", () -> agent.run(agentSetup.get()));
        if (tuneKernel) {
          tasks.execute(Task.of("load-kernel-modules", kernel::loadModules));
        }
        ProvisionUseCase.recordHostEntries(parts);
        tasks.execute(Task.of("write-units", () -> new WriteUnitsPhase(parts).run(goal)));
        tasks.execute(Task.of("activate-version", () -> activate.run(version)));
        ConfigureResult changes = node.configure(goal);
        if (tuneKernel) {
          tasks.execute(Task.of("write-sysctls", kernel::writeSysctls));
          tasks.execute(Task.of("apply-sysctls", kernel::applySysctls));
        }
        node.start(node.running(), changes);
        node.parts().recordApplied(config);
        if (agentSetup.isPresent()) {
          tasks.execute(Task.of("start-agent", () -> agent.startDaemon(agentChanged)));
        }
        return new BootstrapResult(
            node.version().orElse(""),
            changes,
            node.running(),
            warningsLeft(preflight, tuneKernel));
      }
    });
  }

  /**
   * Refuses an agent whose configuration file (which its daemon follows as root) or java (which
   * its launcher runs as root at every boot) a user or group other than root can change.
   */
  private void requireRootOnly(AgentSetup agent) throws IOException {
    AgentFilesCheck.requireRootOnly(new RootOnlyPath(parts.ports().files()), agent);
  }

  /**
   * The preflight's warnings that still hold after a bootstrap: sysctls not in force are not among
   * them when the bootstrap tuned the kernel, since it applied them (or failed).
   */
  private static List<PreflightReport.Check> warningsLeft(
      PreflightReport preflight, boolean tuneKernel) {
    return preflight.warnings().stream()
        .filter(c -> !(tuneKernel && c.name().equals(SysctlsCheck.NAME)))
        .toList();
  }

  /**
   * The first step, before anything outside the layout changes: install and verify the version.
   * When that fails on a host where no node was before, what the bootstrap left in the layout
   * (its lock, staging, the layout itself and the parents it created) goes again.
   */
  private void prepareOrLeaveNoTrace(MachineGoalState goal) {
    try {
      tasks.execute(Task.of("prepare", () -> new InstallVersionPhase(parts).run(goal)));
    } catch (RuntimeException failure) {
      try {
        TeardownSteps teardown = node.teardown().steps();
        if (!teardown.present()) {
          teardown.removeBootstrapLeftovers();
        }
      } catch (IOException | RuntimeException cleanup) {
        failure.addSuppressed(cleanup);
      } catch (InterruptedException interrupted) {
        Thread.currentThread().interrupt();
        failure.addSuppressed(interrupted);
      }
      throw failure;
    }
  }
}
