package dev.noneops.acceptance.system;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.testkit.fixtures.sandbox.SystemdSandbox;
import dev.noneops.testkit.fixtures.standins.StandInScripts;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The real notifier under a real systemd 252: a {@code Type=notify} unit with {@code WatchdogSec=2}
 * whose program ({@link NotifyingDaemon}, in a JVM of its own) sends {@code READY=1} and
 * keep-alives over {@code $NOTIFY_SOCKET}. Both units start together so the watchdog periods of
 * each run at once.
 */
class NotifyingServiceOnRealSystemdSystemTest {
  @RegisterExtension
  static final SystemdSandboxExtension SANDBOX = new SystemdSandboxExtension("notify");

  private static final String KEEPS_ALIVE = "noneops-keeps-alive.service";
  private static final String FALLS_SILENT = "noneops-falls-silent.service";
  private static final Duration WATCHDOG = Duration.ofSeconds(2);
  private static final Duration POLL = Duration.ofMillis(100);

  /** What each unit was seen as, in order, while both started; filled once for the class. */
  private static final Map<String, Set<String>> SEEN = new TreeMap<>();

  @BeforeAll
  static void startBothUnits() throws Exception {
    install(KEEPS_ALIVE, "keeps-alive");
    install(FALLS_SILENT, "falls-silent");
    SystemdSandbox sandbox = SANDBOX.sandbox();
    assertThat(sandbox.systemctl("daemon-reload").succeeded()).isTrue();
    assertThat(
            sandbox.systemctl("start", "--no-block", KEEPS_ALIVE, FALLS_SILENT).succeeded())
        .isTrue();
    SEEN.put(KEEPS_ALIVE, new LinkedHashSet<>());
    SEEN.put(FALLS_SILENT, new LinkedHashSet<>());
    // the silent one is killed two seconds after it is ready; the other must outlive that by
    // several watchdog periods
    Instant until = Instant.now().plus(NotifyingDaemon.START_UP).plus(WATCHDOG.multipliedBy(4));
    while (Instant.now().isBefore(until)) {
      for (String unit : SEEN.keySet()) {
        String state = state(unit);
        // the start job may not have run yet at the first look
        if (!SEEN.get(unit).isEmpty() || !state.equals("inactive/dead/success")) {
          SEEN.get(unit).add(state);
        }
      }
      Thread.sleep(POLL.toMillis());
    }
  }

  private static void install(String unit, String mode) throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    // a checkout below /tmp is hidden in the sandbox, which mounts its own tmpfs there
    List<String> entries = new ArrayList<>();
    for (String entry : System.getProperty(
            "surefire.test.class.path", System.getProperty("java.class.path"))
        .split(File.pathSeparator)) {
      if (!entry.isEmpty() && Files.exists(Path.of(entry))) {
        entries.add(StandInScripts.visibleInSandbox(Path.of(entry)).toString());
      }
    }
    String classPath = String.join(File.pathSeparator, entries);
    List<String> command = new ArrayList<>(List.of(
        java.toString(),
        "-XX:TieredStopAtLevel=1",
        "-XX:+UseSerialGC",
        "-cp",
        classPath,
        NotifyingDaemon.class.getName(),
        mode));
    Files.writeString(
        SANDBOX.sandbox().path("/etc/systemd/system/" + unit),
        "[Unit]\nDescription=noneops system test: a notify daemon that " + mode + "\n"
            + "[Service]\nType=notify\nWatchdogSec=" + WATCHDOG.toSeconds() + "\n"
            + "TimeoutStartSec=60\nLimitCORE=0\n"
            + "ExecStart=" + String.join(" ", command).replace("%", "%%") + "\n");
  }

  /** {@code <ActiveState>/<SubState>/<Result>} of {@code unit}, as systemctl shows it. */
  private static String state(String unit) {
    String out = SANDBOX
        .sandbox()
        .systemctl("show", "-p", "ActiveState", "-p", "SubState", "-p", "Result", unit)
        .stdout();
    Map<String, String> props = new TreeMap<>();
    out.lines()
        .filter(l -> l.contains("="))
        .forEach(l -> props.put(l.substring(0, l.indexOf('=')), l.substring(l.indexOf('=') + 1)));
    return props.get("ActiveState") + "/" + props.get("SubState") + "/" + props.get("Result");
  }

  @Test
  void theUnitIsActivatingUntilItsProgramSaysReadyThenActive() {
    assertThat(SEEN.get(KEEPS_ALIVE))
        .as("states of %s\n%s", KEEPS_ALIVE, SANDBOX.sandbox().journal(KEEPS_ALIVE))
        .startsWith("activating/start/success")
        .contains("active/running/success");
  }

  @Test
  void keepAlivesKeepItActivePastSeveralWatchdogPeriods() {
    assertThat(SEEN.get(KEEPS_ALIVE))
        .as("states of %s\n%s", KEEPS_ALIVE, SANDBOX.sandbox().journal(KEEPS_ALIVE))
        .containsExactly("activating/start/success", "active/running/success");
    assertThat(state(KEEPS_ALIVE)).isEqualTo("active/running/success");
  }

  @Test
  void aProgramThatStopsSendingKeepAlivesIsKilledByTheWatchdog() {
    assertThat(SEEN.get(FALLS_SILENT))
        .as("states of %s\n%s", FALLS_SILENT, SANDBOX.sandbox().journal(FALLS_SILENT))
        .startsWith("activating/start/success", "active/running/success")
        .contains("failed/failed/watchdog");
  }
}
