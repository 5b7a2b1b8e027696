package dev.noneops.acceptance.node;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.core.goalstate.MachineGoalState;
import dev.noneops.core.node.Node;
import dev.noneops.core.node.NodeBackend;
import dev.noneops.core.node.NodeException;
import dev.noneops.core.node.NodeRoot;
import dev.noneops.core.node.Overrides;
import dev.noneops.core.node.Params;
import dev.noneops.core.node.Teardown;
import dev.noneops.core.node.internal.version.VersionVerifier;
import dev.noneops.testkit.fixtures.node.SimNode;
import dev.noneops.testkit.fs.FileTreeSnapshot;
import dev.noneops.testkit.gate.PortCall;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Prepare reuses what is installed and verified, and repairs what is not. */
class PrepareScenarioTest {

  @Test
  void prepareOfAnInstalledVersionDownloadsZeroBytes() {
    SimNode lab = new SimNode();
    MachineGoalState goal = lab.goal(SimNode.config());
    lab.bootstrap(goal);
    long served = lab.host.artifacts().bytesServed();
    long requests = lab.host.artifacts().requests();
    FileTreeSnapshot layoutBefore = lab.host.snapshot(lab.layout.root());
    lab.host.journal().clear();

    NodeRoot root = lab.node(SimNode.config()).prepare();

    assertThat(root.slot()).isEqualTo(goal.rootFs().versionName());
    assertThat(root.directory()).isEqualTo(lab.layout.versionDir(goal.rootFs().versionName()));
    assertThat(lab.host.artifacts().bytesServed()).isEqualTo(served);
    assertThat(lab.host.artifacts().requests()).isEqualTo(requests);
    assertThat(lab.host.journal().calls()).noneMatch(c -> c.port().equals("downloads"));
    assertThat(lab.host.snapshot(lab.layout.root())).isEqualTo(layoutBefore);
  }

  @Test
  void prepareOfAnUnchangedInstalledVersionReadsNothingButItsManifest() {
    SimNode lab = new SimNode();
    MachineGoalState goal = lab.goal(SimNode.config());
    lab.bootstrap(goal);
    String v = goal.rootFs().versionName();
    lab.host.journal().clear();

    lab.node(SimNode.config()).prepare();

    List<PortCall> reads = lab.host
        .journal()
        .calls(c -> c.port().equals("files")
            && (c.method().equals("read") || c.method().equals("openRead"))
            && c.args().get(0).startsWith(lab.layout.versionDir(v).toString()));
    assertThat(reads)
        .extracting(c -> c.args().get(0))
        .containsExactly(lab.layout.manifest(v).toString());
    assertThat(lab.host.journal().calls("files.lstat")).isNotEmpty();
  }

  @Test
  void aFileReplacedAfterInstallIsCaughtByItsChangedMetadataAndRepairedByPrepare()
      throws IOException {
    SimNode lab = new SimNode();
    MachineGoalState goal = lab.goal(SimNode.config());
    lab.publish(goal);
    String v = goal.rootFs().versionName();
    Node node = lab.node(goal);
    node.prepare();
    Path runc = lab.layout.binDir(v).resolve("runc");
    String original = lab.host.ports().files().readString(runc);
    lab.host
        .fs()
        .writeVolatile(
            runc,
            original.toUpperCase(java.util.Locale.ROOT).getBytes(StandardCharsets.UTF_8),
            0755);
    long requests = lab.host.artifacts().requests();

    lab.node(goal).prepare();

    assertThat(lab.host.artifacts().requests()).isGreaterThan(requests);
    assertThat(lab.host.ports().files().readString(runc)).isEqualTo(original);
    assertThat(
            new VersionVerifier(lab.host.ports().files(), lab.layout).verify(v).verified())
        .isTrue();
  }

  @Test
  void verifyReadsEveryFileSoItCatchesAContentChangeThatKeptEveryPieceOfMetadata()
      throws IOException {
    SimNode lab = new SimNode();
    MachineGoalState goal = lab.goal(SimNode.config());
    Node node = lab.bootstrap(goal);
    String v = goal.rootFs().versionName();
    Path runc = lab.layout.binDir(v).resolve("runc");
    byte[] content = lab.host.ports().files().read(runc);
    content[content.length - 2] ^= 1;
    lab.host.fs().corruptContent(runc, content);

    var trusting =
        new VersionVerifier(lab.host.ports().files(), lab.layout).verifyTrustingStamps(v);
    var full = new VersionVerifier(lab.host.ports().files(), lab.layout).verify(v);

    assertThat(trusting.verified())
        .as("prepare's check trusts unchanged metadata")
        .isTrue();
    assertThat(full.verified()).isFalse();
    assertThat(full.describe()).contains("bin/runc has sha256").contains("manifest says");
  }

  @Test
  void anIncompleteVersionIsRemovedAndInstalledAgain() throws IOException {
    SimNode lab = new SimNode();
    MachineGoalState goal = lab.goal(SimNode.config());
    lab.publish(goal);
    String v = goal.rootFs().versionName();
    Path dir = lab.layout.versionDir(v);
    lab.host.fs().seedFile(dir.resolve("bin/kubelet"), "half a kubelet", 0755);
    lab.host.fs().seedFile(dir.resolve("bin/stray"), "left by a crash", 0644);
    lab.host.fs().seedFile(lab.layout.staging().resolve(v).resolve("bin/kubectl"), "partial", 0755);

    Node node = lab.node(goal);
    node.prepare();

    assertThat(
            new VersionVerifier(lab.host.ports().files(), lab.layout).verify(v).verified())
        .isTrue();
    assertThat(lab.host.ports().files().readString(dir.resolve("bin/kubelet")))
        .startsWith("#!/bin/sh\n# kubelet");
    assertThat(lab.host.snapshot(lab.layout.root()).paths())
        .doesNotContain(dir.resolve("bin/stray").toString())
        .noneMatch(p -> p.startsWith(lab.layout.staging().toString()));
    assertThat(lab.host.tempFiles(lab.layout.root())).isEmpty();
  }

  @Test
  void aVersionWhoseFilesNoLongerMatchItsManifestIsReportedCorrupt() throws IOException {
    SimNode lab = new SimNode();
    MachineGoalState goal = lab.goal(SimNode.config());
    Node node = lab.bootstrap(goal);
    String v = goal.rootFs().versionName();
    lab.host.fs().seedFile(lab.layout.binDir(v).resolve("runc"), "#!/bin/sh\n# swapped\n", 0755);

    var verification = new VersionVerifier(lab.host.ports().files(), lab.layout).verify(v);

    assertThat(verification.verified()).isFalse();
    assertThat(verification.describe()).contains("bin/runc has").contains("manifest says");
  }

  @Test
  void stopAndStatusWorkWithoutAConfiguration() {
    SimNode lab = new SimNode();
    MachineGoalState goal = lab.goal(SimNode.config());
    lab.bootstrap(goal);

    Node bare = lab.node(Params.builder(lab.host.ports()));
    NodeBackend backend = bare.backend();
    assertThat(backend.status().running()).isTrue();
    assertThat(backend.status().version()).contains(goal.rootFs().versionName());

    lab.host.journal().clear();
    backend.stop();

    assertThat(lab.unitJobsAndWaits())
        .containsExactly("systemd.stopAll(kubelet.service, containerd.service, localdns.service)");
    assertThat(backend.status().running()).isFalse();
    assertThat(bare.running()).isFalse();
  }

  @Test
  void aDownloadHookReplacesTheInstallerButAVersionWithoutManifestIsNeverActivated() {
    SimNode lab = new SimNode();
    MachineGoalState goal = lab.goal(SimNode.config());
    java.util.concurrent.atomic.AtomicInteger hookRuns =
        new java.util.concurrent.atomic.AtomicInteger();
    Node node = new Node(Params.builder(lab.host.ports())
        .goalState(goal)
        .overrides(dev.noneops.core.node.Overrides.builder()
            .layout(lab.layout)
            .download(() -> {
              hookRuns.incrementAndGet();
              lab.host.installExecutable(
                  lab.layout.binDir(goal.rootFs().versionName()).resolve("kubelet"), "#!/bin/sh\n");
            })
            .build())
        .build());

    NodeException refused =
        org.assertj.core.api.Assertions.catchThrowableOfType(NodeException.class, node::provision);

    assertThat(hookRuns).hasValue(1);
    assertThat(lab.host.artifacts().requests()).isZero();
    assertThat(refused.failedAt()).contains("provision › check-version");
    assertThat(refused)
        .hasMessageContaining("refusing to activate version " + goal.rootFs().versionName())
        .hasMessageContaining("no valid manifest");
    assertThat(node.version()).isEmpty();
    assertThat(lab.host.snapshot().paths())
        .noneMatch(p -> p.startsWith("/etc/systemd/system/") && p.endsWith(".service"));
  }

  @Test
  void theBackendDestroysThroughTheGivenTeardown() {
    SimNode lab = new SimNode();
    java.util.List<String> calls = new java.util.ArrayList<>();
    Node node = lab.node(Params.builder(lab.host.ports()).teardown(() -> calls.add("destroy")));

    node.backend().destroy();

    assertThat(calls).containsExactly("destroy");
  }

  @Test
  void theBackendDestroysThroughTheNodesOwnTeardownWhichSharesTheNodeLock() throws Exception {
    SimNode lab = new SimNode();
    MachineGoalState goal = lab.goal(SimNode.config());
    lab.bootstrap(goal);
    AtomicReference<Node> self = new AtomicReference<>();
    Node node = new Node(Params.builder(lab.host.ports())
        .goalState(goal)
        .overrides(Overrides.builder()
            .layout(lab.layout)
            .download(() -> self.get().backend().destroy())
            .build())
        .build());
    self.set(node);

    node.prepare(); // holds the node lock while its download step destroys the node

    assertThat(new Teardown(lab.host.ports(), lab.layout, lab.paths).present()).isFalse();
    assertThat(lab.host.fs().lstat(lab.layout.root())).isEmpty();
    assertThat(lab.host.systemd().activeUnits()).isEmpty();
  }
}
