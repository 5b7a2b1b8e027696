package dev.noneops.acceptance.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.config.AppliedConfigStore;
import dev.noneops.core.node.KeepReason;
import dev.noneops.core.node.Teardown;
import dev.noneops.core.node.TeardownOptions;
import dev.noneops.core.node.TeardownResult;
import dev.noneops.core.node.UpgradeFailedException;
import dev.noneops.testkit.fixtures.node.SimNode;
import dev.noneops.testkit.fs.FileTreeSnapshot;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The CNI configuration and state an upgrade, its rollback and the teardown clean are the node's
 * only: what was in {@code /etc/cni/net.d} and {@code /var/lib/cni} before the node came (a
 * foreign runtime's network configuration, its address reservations and cached results) is the
 * host's, and stays byte-identical, while everything the node's pods added there goes.
 */
class CniEntriesFromBeforeTheNodeTest {
  private static final AgentConfig V1 = SimNode.config("1.31.2", "2.0.4", "blue");
  private static final AgentConfig V2 = SimNode.config("1.31.3", "2.1.1", "green");

  private static final String CONF_DIR = "/etc/cni/net.d";
  private static final String STATE_DIR = "/var/lib/cni";
  private static final List<String> FOREIGN_FILES = List.of(
      CONF_DIR + "/05-foreign.conflist",
      STATE_DIR + "/networks/foreign/10.88.0.2",
      STATE_DIR + "/networks/foreign/last_reserved_ip.0",
      STATE_DIR + "/networks/foreign/lock",
      STATE_DIR + "/results/foreign-0f0f-eth0");
  private static final List<String> NODE_FILES = List.of(
      CONF_DIR + "/10-pods.conflist",
      STATE_DIR + "/networks/pods/10.231.7.2",
      STATE_DIR + "/networks/pods/last_reserved_ip.0",
      STATE_DIR + "/networks/foreign/10.88.0.9",
      STATE_DIR + "/results/pods-c1-eth0");

  private SimNode lab;

  @BeforeEach
  void aForeignRuntimesCniEntriesAreThereBeforeTheNode() throws Exception {
    lab = new SimNode();
    lab.host.fs().seedDirectory(Path.of(CONF_DIR), 0755);
    lab.host.fs().seedDirectory(Path.of(STATE_DIR, "networks/foreign"), 0755);
    lab.host.fs().seedDirectory(Path.of(STATE_DIR, "results"), 0700);
    for (String file : FOREIGN_FILES) {
      lab.host.fs().seedFile(Path.of(file), "foreign " + file + "\n", 0640);
    }
  }

  /** What the node's pods leave there: the CNI agent's configuration, reservations, results. */
  private void theNodesPodsWriteTheirCniEntries() throws Exception {
    lab.host.fs().seedDirectory(Path.of(STATE_DIR, "networks/pods"), 0755);
    for (String file : NODE_FILES) {
      lab.host.fs().seedFile(Path.of(file), "node " + file + "\n", 0644);
    }
  }

  private Map<String, String> cniTrees() {
    Map<String, String> out = new TreeMap<>();
    for (FileTreeSnapshot.Entry e : lab.host.snapshot().entries()) {
      if (e.path().startsWith("/etc/cni") || e.path().startsWith(STATE_DIR)) {
        out.put(e.path(), e.toString());
      }
    }
    return out;
  }

  private Teardown teardown() {
    return new Teardown(
        lab.host.ports(),
        lab.layout,
        lab.paths,
        TeardownOptions.defaults(),
        LoggerFactory.getLogger(getClass()));
  }

  @Test
  void anUpgradeRemovesThePodsCniEntriesAndLeavesThoseFromBeforeTheNodeByteIdentical()
      throws Exception {
    Map<String, String> before = cniTrees();
    lab.bootstrap(V1);
    lab.publish(V2);
    theNodesPodsWriteTheirCniEntries();

    lab.node(V2, Optional.of(V1)).upgrade();

    assertThat(cniTrees()).isEqualTo(before);
  }

  @Test
  void aRolledBackUpgradeRemovesThePodsCniEntriesAndLeavesThoseFromBeforeTheNodeByteIdentical()
      throws Exception {
    Map<String, String> before = cniTrees();
    lab.bootstrap(V1);
    lab.publish(V2);
    lab.kubeletNeverReady.add(lab.versionOf(V2));
    theNodesPodsWriteTheirCniEntries();

    assertThatThrownBy(() -> lab.node(V2, Optional.of(V1)).upgrade())
        .isInstanceOf(UpgradeFailedException.class);

    assertThat(lab.activeVersionRaw()).contains(lab.versionOf(V1));
    assertThat(cniTrees()).isEqualTo(before);
  }

  @Test
  void aTeardownRemovesThePodsCniEntriesAndLeavesThoseFromBeforeTheNodeByteIdentical()
      throws Exception {
    Map<String, String> before = cniTrees();
    lab.bootstrap(V1);
    theNodesPodsWriteTheirCniEntries();
    Teardown teardown = teardown();

    TeardownResult report = teardown.stop().plus(teardown.removeConfig()).plus(teardown.destroy());
    new AppliedConfigStore(lab.host.ports().files(), lab.paths).remove();

    assertThat(report.complete()).as("%s", report).isTrue();
    assertThat(teardown.present()).isFalse();
    assertThat(cniTrees()).as("%s", report).isEqualTo(before);
  }

  @Test
  void aTeardownRemovesTheCniDirectoriesTheNodesPodsCreated() throws Exception {
    SimNode bare = new SimNode();
    lab = bare;
    lab.bootstrap(V1);
    theNodesPodsWriteTheirCniEntries();
    Teardown teardown = teardown();

    TeardownResult report = teardown.stop().plus(teardown.removeConfig()).plus(teardown.destroy());

    assertThat(report.complete()).as("%s", report).isTrue();
    assertThat(cniTrees()).as("%s", report).isEmpty();
  }

  /**
   * A bootstrap run again (after a crash, or by an operator) finds the node's own entries there:
   * the first record stands, so they are not taken for the host's.
   */
  @Test
  void aSecondProvisionKeepsTheFirstRecordOfWhatWasThere() throws Exception {
    Map<String, String> before = cniTrees();
    lab.bootstrap(V1);
    theNodesPodsWriteTheirCniEntries();
    lab.node(V1).provision();
    lab.publish(V2);

    lab.node(V2, Optional.of(V1)).upgrade();

    assertThat(cniTrees()).isEqualTo(before);
  }

  /**
   * A node with no record (provisioned before records were kept) cannot tell the host's entries
   * from its own: the teardown leaves both directories as they are and says so, without blocking.
   */
  @Test
  void withoutARecordTheTeardownLeavesTheCniDirectoriesAsTheyAreAndSaysSo() throws Exception {
    lab.bootstrap(V1);
    theNodesPodsWriteTheirCniEntries();
    lab.host.ports().files().removeDurably(lab.layout.cniBefore());
    Map<String, String> before = cniTrees();
    Teardown teardown = teardown();

    TeardownResult report = teardown.stop().plus(teardown.removeConfig()).plus(teardown.destroy());

    assertThat(report.complete()).as("%s", report).isTrue();
    assertThat(report.kept(KeepReason.NOT_RECORDED))
        .extracting(TeardownResult.Kept::subject)
        .contains(CONF_DIR, STATE_DIR);
    assertThat(cniTrees()).isEqualTo(before);
  }

  /** A record naming a path outside the CNI trees is not trusted: nothing there is removed. */
  @Test
  void aRecordNamingAPathOutsideTheCniTreesIsRefusedAndNothingThereIsRemoved() throws Exception {
    lab.bootstrap(V1);
    theNodesPodsWriteTheirCniEntries();
    lab.host
        .ports()
        .files()
        .writeDurably(lab.layout.cniBefore(), "{\"format\":1,\"entries\":[\"/etc/passwd\"]}", 0600);
    Map<String, String> before = cniTrees();
    Teardown teardown = teardown();

    TeardownResult report = teardown.stop().plus(teardown.removeConfig()).plus(teardown.destroy());

    assertThat(report.blocking())
        .singleElement()
        .satisfies(k -> assertThat(k.toString()).contains(".cni-before.json", "/etc/passwd"));
    assertThat(cniTrees()).isEqualTo(before);
    assertThat(teardown.present()).isTrue();
  }
}
