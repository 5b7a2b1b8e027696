package dev.noneops.testkit.commands;

import dev.noneops.ports.Errno;
import dev.noneops.ports.HostIOException;
import dev.noneops.ports.commands.Command;
import dev.noneops.ports.commands.CommandResult;
import dev.noneops.ports.commands.CommandRunner;
import dev.noneops.testkit.gate.PortGate;
import dev.noneops.testkit.time.VirtualClock;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The {@link CommandRunner} port over a registry of simulated programs: each registration maps an
 * argv prefix to a {@link CommandHandler}; the newest matching registration runs. The first element
 * of a prefix matches argv[0] exactly or by its base name ({@code modprobe} matches
 * {@code /sbin/modprobe}). A command nothing matches fails like a missing program (ENOENT).
 */
public final class SimCommandRunner implements CommandRunner {
  private static final String PORT = "commands";

  private record Registration(List<String> prefix, CommandHandler handler) {}

  private final PortGate gate;
  private final VirtualClock clock;
  private final List<Registration> registrations = new ArrayList<>();
  private final List<Command> history = new ArrayList<>();

  public SimCommandRunner(PortGate gate, VirtualClock clock) {
    this.gate = Objects.requireNonNull(gate, "gate");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** Registers {@code handler} for commands starting with {@code argvPrefix}; overrides older registrations. */
  public void register(List<String> argvPrefix, CommandHandler handler) {
    if (argvPrefix.isEmpty()) {
      throw new IllegalArgumentException("an argv prefix names at least the program");
    }
    synchronized (gate.monitor()) {
      registrations.add(
          0, new Registration(List.copyOf(argvPrefix), Objects.requireNonNull(handler, "handler")));
    }
  }

  /** Registers a program that always ends with {@code outcome}. */
  public void register(List<String> argvPrefix, CommandOutcome outcome) {
    register(argvPrefix, command -> outcome);
  }

  /** Every command run so far (including failed ones), oldest first. */
  public List<Command> history() {
    synchronized (gate.monitor()) {
      return List.copyOf(history);
    }
  }

  @Override
  public CommandResult run(Command command) throws IOException {
    Objects.requireNonNull(command, "command");
    return gate.call(PORT, "run", true, command.argv(), () -> {
      history.add(command);
      CommandHandler handler = find(command.argv());
      CommandOutcome outcome = handler.run(command);
      if (outcome.runtime().compareTo(command.timeout()) > 0) {
        clock.advance(command.timeout());
        return new CommandResult(-1, "", "", true);
      }
      clock.advance(outcome.runtime());
      return new CommandResult(
          outcome.exitCode(),
          cap(outcome.stdout(), command.maxOutputBytes()),
          cap(outcome.stderr(), command.maxOutputBytes()),
          false);
    });
  }

  private CommandHandler find(List<String> argv) throws HostIOException {
    for (Registration r : registrations) {
      if (matches(r.prefix(), argv)) {
        return r.handler();
      }
    }
    throw new HostIOException(Errno.ENOENT, "exec", argv.get(0));
  }

  private static boolean matches(List<String> prefix, List<String> argv) {
    if (argv.size() < prefix.size()) {
      return false;
    }
    String program = prefix.get(0);
    String argv0 = argv.get(0);
    boolean programMatches = argv0.equals(program)
        || (!program.contains("/")
            && argv0.substring(argv0.lastIndexOf('/') + 1).equals(program));
    return programMatches
        && argv.subList(1, prefix.size()).equals(prefix.subList(1, prefix.size()));
  }

  private static String cap(String output, int maxBytes) {
    byte[] bytes = output.getBytes(StandardCharsets.UTF_8);
    if (bytes.length <= maxBytes) {
      return output;
    }
    return new String(bytes, 0, maxBytes, StandardCharsets.UTF_8);
  }
}
