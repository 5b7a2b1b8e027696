package dev.noneops.testkit.process;

import dev.noneops.ports.process.Cgroups;
import dev.noneops.testkit.gate.PortGate;
import java.io.IOException;
import java.util.List;

/** The {@link Cgroups} port over the simulated cgroup tree. */
public final class SimCgroups implements Cgroups {
  private static final String PORT = "cgroups";

  private final PortGate gate;
  private final SimProcesses processes;

  public SimCgroups(PortGate gate, SimProcesses processes) {
    this.gate = gate;
    this.processes = processes;
  }

  @Override
  public boolean available() {
    return gate.callUnchecked(PORT, "available", false, List.of(), processes::cgroupsAvailable);
  }

  @Override
  public boolean exists(String cgroup) throws IOException {
    return gate.call(
        PORT, "exists", false, PortGate.args(cgroup), () -> processes.cgroupExists(cgroup));
  }

  @Override
  public List<String> children(String cgroup) throws IOException {
    return gate.call(
        PORT, "children", false, PortGate.args(cgroup), () -> processes.children(cgroup));
  }

  @Override
  public List<Long> pids(String cgroup) throws IOException {
    return gate.call(PORT, "pids", false, PortGate.args(cgroup), () -> processes.pids(cgroup));
  }

  @Override
  public boolean supportsKill() throws IOException {
    return gate.call(
        PORT,
        "supportsKill",
        false,
        List.of(),
        () -> processes.cgroupsAvailable() && processes.killSupported());
  }

  @Override
  public void kill(String cgroup) throws IOException {
    gate.call(PORT, "kill", true, PortGate.args(cgroup), () -> {
      processes.killCgroup(cgroup);
      return null;
    });
  }

  @Override
  public void remove(String cgroup) throws IOException {
    gate.call(PORT, "remove", true, PortGate.args(cgroup), () -> {
      processes.removeCgroup(cgroup);
      return null;
    });
  }
}
