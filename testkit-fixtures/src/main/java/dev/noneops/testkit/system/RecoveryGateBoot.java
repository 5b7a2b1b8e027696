package dev.noneops.testkit.system;

import dev.noneops.core.layout.HostPaths;
import dev.noneops.testkit.sandbox.JobResult;
import dev.noneops.testkit.sandbox.SystemdSandbox;
import dev.noneops.testkit.sandbox.UnitTimes;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What one boot of a sandboxed node did with its recovery gate ({@value
 * HostPaths#RECOVERY_GATE_UNIT}), from that boot's own systemd records and journal: when the gate
 * and each of the stack's units started and became active, the gate's start job's result and the
 * line the gate wrote. It is how the power-cut suite and the demo show that, after a reboot with
 * no operator command, recovery finished before any unit of the stack started.
 *
 * @param gate the gate unit's times
 * @param stack the stack's units' times ({@link HostPaths#STACK_UNITS}), in start order
 * @param gateJobs the results of the gate's jobs in this boot ({@code start done} when it ran)
 * @param gateLine the gate's last {@value #GATE_LINE_PREFIX} line in the boot's journal, or empty
 * @param journal what systemd's lines of the boot's journal say about the gate and the stack's
 *     units ({@code Starting}, {@code Started}, {@code Finished}, {@code Failed}), in order, each
 *     with its monotonic time
 */
public record RecoveryGateBoot(
    UnitTimes gate,
    List<UnitTimes> stack,
    List<String> gateJobs,
    String gateLine,
    List<String> journal) {
  /** How every line the recovery gate logs begins. */
  public static final String GATE_LINE_PREFIX = "noneops recovery gate:";

  public RecoveryGateBoot {
    stack = List.copyOf(stack);
    gateJobs = List.copyOf(gateJobs);
    journal = List.copyOf(journal);
  }

  /** Reads the current boot of {@code sandbox}. */
  public static RecoveryGateBoot of(SystemdSandbox sandbox) {
    List<String> units = new ArrayList<>();
    units.add(HostPaths.RECOVERY_GATE_UNIT);
    units.addAll(HostPaths.STACK_UNITS);
    List<UnitTimes> times = sandbox.unitTimes(units);
    UnitTimes gate = times.stream()
        .filter(t -> t.unit().equals(HostPaths.RECOVERY_GATE_UNIT))
        .findFirst()
        .orElseThrow();
    List<UnitTimes> stack =
        times.stream().filter(t -> HostPaths.STACK_UNITS.contains(t.unit())).toList();
    String bootJournal = sandbox.bootJournal();
    return new RecoveryGateBoot(
        gate,
        stack,
        jobsOf(sandbox.jobResults(), HostPaths.RECOVERY_GATE_UNIT),
        gateLine(bootJournal),
        unitLines(bootJournal, units));
  }

  /**
   * systemd's lines of {@code bootJournal} ({@code journalctl -o short-monotonic}) about {@code
   * units}' jobs, in order, as {@code [  3.402511] Finished noneops-recover.service}.
   */
  static List<String> unitLines(String bootJournal, List<String> units) {
    List<String> lines = new ArrayList<>();
    for (String line : bootJournal.lines().toList()) {
      int pid1 = line.indexOf(" systemd[1]: ");
      if (pid1 < 0 || !line.startsWith("[")) {
        continue;
      }
      String said = line.substring(pid1 + " systemd[1]: ".length());
      for (String unit : units) {
        for (String verb : List.of("Starting ", "Started ", "Finished ", "Failed to start ")) {
          if (said.startsWith(verb + unit)) {
            lines.add(line.substring(0, line.indexOf(']') + 1) + " " + verb + unit);
          }
        }
      }
    }
    return lines;
  }

  /**
   * Whether the journal says the gate {@code Finished} before it says anything of any of the
   * stack's units, and something of each ({@code Starting}, or only {@code Started} for a unit of
   * {@code Type=simple}, whose start systemd does not announce).
   */
  public boolean journalShowsTheGateFirst() {
    int finished = indexOf("] Finished " + HostPaths.RECOVERY_GATE_UNIT);
    int firstStack = Integer.MAX_VALUE;
    for (String unit : HostPaths.STACK_UNITS) {
      int first =
          Math.min(positive(indexOf("] Starting " + unit)), positive(indexOf("] Started " + unit)));
      if (first == Integer.MAX_VALUE) {
        return false;
      }
      firstStack = Math.min(firstStack, first);
    }
    return finished >= 0 && finished < firstStack;
  }

  private static int positive(int index) {
    return index < 0 ? Integer.MAX_VALUE : index;
  }

  private int indexOf(String said) {
    for (int i = 0; i < journal.size(); i++) {
      if (journal.get(i).endsWith(said)) {
        return i;
      }
    }
    return -1;
  }

  /**
   * The last line of {@code bootJournal} the gate wrote, from {@value #GATE_LINE_PREFIX} on. Lines
   * of PID 1 are not the gate's: the gate unit's description begins with the same words, so
   * systemd's {@code Starting}/{@code Finished} lines about it would match too.
   */
  public static String gateLine(String bootJournal) {
    return bootJournal
        .lines()
        .filter(l -> l.contains(GATE_LINE_PREFIX) && !l.contains(" systemd[1]: "))
        .map(l -> l.substring(l.indexOf(GATE_LINE_PREFIX)))
        .reduce((first, second) -> second)
        .orElse("");
  }

  /** Whether the gate's start job ran to its end ({@code start done}) and it is active/exited. */
  public boolean gateRan() {
    return gateJobs.equals(List.of("start done"))
        && gate.activeState().equals("active")
        && gate.subState().equals("exited");
  }

  /**
   * Whether the gate ran and had finished before each of the stack's units began to start, by
   * systemd's records and by its journal alike.
   */
  public boolean gateFinishedBeforeTheStack() {
    return gateRan()
        && journalShowsTheGateFirst()
        && stack.size() == HostPaths.STACK_UNITS.size()
        && stack.stream().allMatch(gate::finishedBefore);
  }

  /** The stack unit that began to start first, if any started. */
  public Optional<UnitTimes> firstStackUnit() {
    return stack.stream().filter(UnitTimes::started).findFirst();
  }

  /**
   * In a few words: how long the gate ran and how long after it the first stack unit started,
   * e.g. {@code gate ran 1.84 s; containerd.service started 0.01 s after it ended}.
   */
  public String timing() {
    String ran = seconds(gate.activeMonotonicMicros() - gate.startedMonotonicMicros());
    return firstStackUnit()
        .map(first -> "gate ran " + ran + "; " + first.unit() + " started "
            + seconds(first.startedMonotonicMicros() - gate.activeMonotonicMicros())
            + " after it ended")
        .orElse("gate ran " + ran + "; no stack unit started");
  }

  private static String seconds(long micros) {
    return String.format(Locale.ROOT, "%.2f s", micros / 1_000_000.0);
  }

  /** {@code unit}'s jobs among {@code jobs}, as {@code "<type> <result>"}. */
  private static List<String> jobsOf(List<JobResult> jobs, String unit) {
    return jobs.stream()
        .filter(job -> job.unit().equals(unit))
        .map(job -> job.type() + " " + job.result())
        .toList();
  }
}
