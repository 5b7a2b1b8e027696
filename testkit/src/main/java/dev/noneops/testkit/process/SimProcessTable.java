package dev.noneops.testkit.process;

import dev.noneops.ports.process.ProcessDetail;
import dev.noneops.ports.process.ProcessIdentity;
import dev.noneops.ports.process.ProcessInfo;
import dev.noneops.ports.process.ProcessTable;
import dev.noneops.testkit.gate.PortGate;
import java.io.IOException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The {@link ProcessTable} port over the simulated processes. Like the real table it leaves out
 * the details a caller did not ask for, so code that needs mapped files but forgets to ask for
 * them sees none here too.
 */
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
    return list(ProcessDetail.all());
  }

  @Override
  public List<ProcessInfo> list(Set<ProcessDetail> details) throws IOException {
    Objects.requireNonNull(details, "details");
    return gate.call(
        PORT,
        "list",
        false,
        List.of(),
        () -> processes.all().stream()
            .map(p -> processes.info(p).withOnly(details))
            .toList());
  }

  @Override
  public Optional<ProcessInfo> get(long pid) throws IOException {
    return get(pid, ProcessDetail.all());
  }

  @Override
  public Optional<ProcessInfo> get(long pid, Set<ProcessDetail> details) throws IOException {
    Objects.requireNonNull(details, "details");
    return gate.call(
        PORT,
        "get",
        false,
        PortGate.args(pid),
        () -> processes.process(pid).map(p -> processes.info(p).withOnly(details)));
  }

  @Override
  public ProcessIdentity self() throws IOException {
    return gate.call(PORT, "self", false, List.of(), processes::self);
  }

  @Override
  public Optional<ProcessIdentity> identity(long pid) throws IOException {
    return gate.call(PORT, "identity", false, PortGate.args(pid), () -> processes.identity(pid));
  }

  @Override
  public boolean signal(long pid, int signal) throws IOException {
    return gate.call(
        PORT,
        "signal",
        signal != 0,
        PortGate.args(pid, signal),
        () -> processes.signal(pid, signal));
  }
}
