package dev.noneops.testkit.process;

import dev.noneops.ports.process.ProcessInfo;
import dev.noneops.ports.process.ProcessTable;
import dev.noneops.testkit.gate.PortGate;
import java.io.IOException;
import java.util.List;
import java.util.Optional;

/** The {@link ProcessTable} port over the simulated processes. */
public final class SimProcessTable implements ProcessTable {
  private static final String PORT = "processes";

  private final PortGate gate;
  private final SimProcesses processes;

  public SimProcessTable(PortGate gate, SimProcesses processes) {
    this.gate = gate;
    this.processes = processes;
  }

  @Override
  public List<ProcessInfo> list() throws IOException {
    return gate.call(PORT, "list", false, List.of(), () -> processes.all().stream().map(processes::info).toList());
  }

  @Override
  public Optional<ProcessInfo> get(long pid) throws IOException {
    return gate.call(PORT, "get", false, PortGate.args(pid), () -> processes.process(pid).map(processes::info));
  }

  @Override
  public boolean signal(long pid, int signal) throws IOException {
    return gate.call(PORT, "signal", signal != 0, PortGate.args(pid, signal), () -> processes.signal(pid, signal));
  }
}
