package dev.noneops.core.node;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.layout.Layout;
import dev.noneops.core.node.internal.phases.AgentUnits;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The recovery gate's unit starts a JVM only when something is in flight: its triggering
 * conditions ({@code |}) name, absolutely and in the node's own layout, each file whose presence
 * means interrupted work, and one plain condition keeps it from running on a node whose daemon has
 * already started in this boot.
 */
class AgentUnitsGateTest {

  private static List<String> conditions(HostPaths paths, Layout layout) {
    return new String(AgentUnits.recoveryGate(paths, layout), StandardCharsets.UTF_8)
        .lines()
        .filter(l -> l.startsWith("Condition"))
        .toList();
  }

  @Test
  void theGateRunsOnlyWhenAFileOfInterruptedWorkIsThereAndTheDaemonHasNotStartedInThisBoot() {
    assertThat(conditions(HostPaths.realHost(), Layout.defaultLayout()))
        .containsExactly(
            "ConditionPathExists=!/run/noneops",
            // an upgrade (or its rollback) in flight
            "ConditionPathExists=|/opt/unbounded/node/upgrade-journal.json",
            // an upgrade's saved configuration, being saved or dropped
            "ConditionPathExists=|/opt/unbounded/node/confsnap",
            // a teardown (reset) in flight
            "ConditionPathExists=|/opt/unbounded/node/.teardown",
            // an install or download in flight (an empty staging directory is nothing)
            "ConditionDirectoryNotEmpty=|/opt/unbounded/node/.staging",
            // a version's removal in flight (prune's tombstone)
            "ConditionPathExistsGlob=|/opt/unbounded/node/.removing-*",
            // an interrupted durable write in the layout (the current link's flip among them)
            "ConditionPathExistsGlob=|/opt/unbounded/node/.noneops-tmp-*");
  }

  @Test
  void theConditionsNameTheLayoutAndRunDirectoryTheNodeWasInstalledWith() {
    HostPaths paths = new HostPaths(Path.of("/srv/host"), Path.of("/srv/host/etc/systemd/system"));
    Layout layout = new Layout(Path.of("/srv/node 100%"));

    assertThat(conditions(paths, layout))
        .containsExactly(
            "ConditionPathExists=!/srv/host/run/noneops",
            "ConditionPathExists=|/srv/node 100%%/upgrade-journal.json",
            "ConditionPathExists=|/srv/node 100%%/confsnap",
            "ConditionPathExists=|/srv/node 100%%/.teardown",
            "ConditionDirectoryNotEmpty=|/srv/node 100%%/.staging",
            "ConditionPathExistsGlob=|/srv/node 100%%/.removing-*",
            "ConditionPathExistsGlob=|/srv/node 100%%/.noneops-tmp-*");
  }

  @Test
  void theGateStillRunsTheRecoveryAtBootBeforeTheStack() {
    String unit = new String(
        AgentUnits.recoveryGate(HostPaths.realHost(), Layout.defaultLayout()),
        StandardCharsets.UTF_8);

    assertThat(unit)
        .contains(
            "Before=localdns.service containerd.service kubelet.service",
            "Type=oneshot",
            "RemainAfterExit=yes",
            "ExecStart=/usr/local/lib/noneops/current/bin/noneops recover --at-boot");
  }
}
