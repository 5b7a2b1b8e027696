package dev.noneops.acceptance.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.node.ApplyResult;
import dev.noneops.core.node.Node;
import dev.noneops.core.node.Overrides;
import dev.noneops.core.node.Params;
import dev.noneops.core.node.ReadinessTimeoutException;
import dev.noneops.core.node.UpgradeAndCommitResult;
import dev.noneops.core.node.UpgradeFailedException;
import dev.noneops.core.node.UpgradeFailedException.RollbackOutcome;
import dev.noneops.core.node.UpgradeOptions;
import dev.noneops.testkit.SimulatedHost;
import dev.noneops.testkit.fixtures.cli.ConfigJson;
import dev.noneops.testkit.fixtures.cli.SimCli;
import dev.noneops.testkit.fixtures.cli.SimCli.Run;
import dev.noneops.testkit.fixtures.node.SimNode;
import dev.noneops.testkit.fs.FileTreeSnapshot;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.slf4j.helpers.NOPLogger;

/**
 * A CNI DaemonSet (Calico's {@code install-cni}, Cilium's {@code install-plugin.sh}) copies its
 * own {@code host-local}, {@code loopback} and {@code portmap} into {@code /opt/cni/bin}: each to
 * a temp name beside, then renamed over the node's link. Such a path is the installer's now: the
 * node stops owning it (durably), keeps it, says so once, and carries on with the rest; no apply,
 * upgrade, rollback or reset puts its link back over the installer's binary or removes it.
 */
class PluginBinariesOfACniInstallerTest {
  private static final AgentConfig V1 = SimNode.config("1.31.4", "1.7.22", "blue");
  private static final AgentConfig V2 = SimNode.config("1.31.5", "1.7.22", "blue");
  private static final Path CNI_BIN = Path.of("/opt/cni/bin");
  private static final Path HOST_LOCAL = CNI_BIN.resolve("host-local");
  private static final Path LOOPBACK = CNI_BIN.resolve("loopback");
  private static final Path BRIDGE = CNI_BIN.resolve("bridge");

  /** What the installers do: copy to {@code .<plugin>.new}, fsync, rename over the link. */
  private static void anInstallerCopiesItsOwn(SimulatedHost host, String plugin) {
    try {
      Path temp = CNI_BIN.resolve("." + plugin + ".new");
      host.fs().writeVolatile(temp, installers(plugin), 0755);
      host.fs().fsync(temp);
      host.fs().rename(temp, CNI_BIN.resolve(plugin));
      host.fs().fsync(CNI_BIN);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static byte[] installers(String plugin) {
    return ("\u007fELF the CNI installer's " + plugin).getBytes(StandardCharsets.UTF_8);
  }

  private static void assertTheInstallersBinaryIsThere(SimulatedHost host, Path plugin)
      throws IOException {
    assertThat(host.fs().lstat(plugin).orElseThrow().isRegularFile())
        .as(plugin.toString())
        .isTrue();
    assertThat(host.ports().files().read(plugin))
        .as(plugin.toString())
        .isEqualTo(installers(plugin.getFileName().toString()));
  }

  @Test
  void applyKeepsTheInstallersBinariesAndLinksTheRest() throws IOException {
    SimNode lab = new SimNode();
    lab.bootstrap(V1);
    anInstallerCopiesItsOwn(lab.host, "host-local");
    anInstallerCopiesItsOwn(lab.host, "loopback");

    lab.node(V1).apply();
    lab.node(V1).apply();

    assertTheInstallersBinaryIsThere(lab.host, HOST_LOCAL);
    assertTheInstallersBinaryIsThere(lab.host, LOOPBACK);
    assertThat(lab.host.fs().lstat(BRIDGE).orElseThrow().isSymlink()).isTrue();
  }

  @Test
  void applySaysOnceWhichPathsItNoLongerOwnsAndStatusKeepsSayingIt() throws IOException {
    SimCli cli = new SimCli(SimulatedHost.create());
    cli.configure(SimCli.CONFIG, ConfigJson.of("1.31.4").json());
    assertThat(cli.run("bootstrap").exitCode()).isZero();
    anInstallerCopiesItsOwn(cli.host(), "host-local");

    Run first = cli.run("apply");
    Run second = cli.run("apply");
    Run status = cli.run("status");
    Run json = cli.run("status", "--json");

    assertThat(first.exitCode()).as(first.out() + first.err()).isZero();
    assertThat(first.out()).contains("no longer owned: " + HOST_LOCAL);
    assertThat(second.exitCode()).as(second.out() + second.err()).isZero();
    assertThat(second.out()).doesNotContain(HOST_LOCAL.toString());
    assertThat(status.out()).contains("disowned:").contains(HOST_LOCAL.toString());
    JsonNode doc = new ObjectMapper().readTree(json.out());
    List<String> disowned = new ArrayList<>();
    doc.get("disowned").forEach(d -> disowned.add(d.get("path").asText()));
    assertThat(disowned).containsExactly(HOST_LOCAL.toString());
  }

  @Test
  void planSaysWhichPathsTheNodeWouldStopOwningAndChangesNothing() throws IOException {
    SimCli cli = new SimCli(SimulatedHost.create());
    cli.configure(SimCli.CONFIG, ConfigJson.of("1.31.4").json());
    cli.run("bootstrap");
    anInstallerCopiesItsOwn(cli.host(), "host-local");
    FileTreeSnapshot before = cli.host().snapshot();

    Run plan = cli.run("plan");

    assertThat(plan.exitCode()).as(plan.out() + plan.err()).isZero();
    assertThat(plan.out())
        .contains(HOST_LOCAL + " no longer holds the node's link")
        .doesNotContain(OwnershipFiles.DISOWNED);
    assertThat(cli.host().snapshot()).isEqualTo(before);
  }

  /** The file beside the ownership record that lists the disowned paths. */
  private static final class OwnershipFiles {
    static final String DISOWNED = "disowned.json";
  }

  @Test
  void theDisowningSurvivesAPowerCut() throws IOException {
    SimCli cli = new SimCli(SimulatedHost.create());
    cli.configure(SimCli.CONFIG, ConfigJson.of("1.31.4").json());
    cli.run("bootstrap");
    anInstallerCopiesItsOwn(cli.host(), "host-local");
    cli.run("apply");

    cli.host().crash();
    Run again = cli.run("apply");

    assertThat(again.exitCode()).as(again.out() + again.err()).isZero();
    assertThat(again.out()).doesNotContain(HOST_LOCAL.toString());
    assertTheInstallersBinaryIsThere(cli.host(), HOST_LOCAL);
  }

  @Test
  void anUpgradeKeepsTheInstallersBinariesAndLinksTheRestIntoTheTarget() throws IOException {
    SimNode lab = new SimNode();
    lab.bootstrap(V1);
    anInstallerCopiesItsOwn(lab.host, "host-local");
    lab.publish(V2);

    UpgradeAndCommitResult done =
        lab.node(V2, Optional.of(V1)).upgradeAndCommit(UpgradeOptions.DEFAULTS);

    assertThat(done.upgrade().targetVersion()).isEqualTo(lab.versionOf(V2));
    assertTheInstallersBinaryIsThere(lab.host, HOST_LOCAL);
    assertThat(lab.host.fs().lstat(BRIDGE).orElseThrow().isSymlink()).isTrue();
  }

  @Test
  void aRollbackDoesNotPutTheNodesLinkBackOverABinaryInstalledDuringTheUpgrade()
      throws IOException {
    SimNode lab = new SimNode();
    lab.bootstrap(V1);
    lab.publish(V2);
    String target = lab.versionOf(V2);
    Node[] node = new Node[1];
    node[0] = new Node(Params.builder(lab.host.ports())
        .config(V2)
        .previous(V1)
        .log(NOPLogger.NOP_LOGGER)
        .overrides(Overrides.builder()
            .layout(lab.layout)
            .waitKubelet(() -> {
              if (lab.activeVersionRaw().filter(target::equals).isPresent()) {
                // the installer's pod ran on the target's kubelet, which then never became ready
                anInstallerCopiesItsOwn(lab.host, "host-local");
                throw new ReadinessTimeoutException("kubelet", Duration.ofSeconds(1), "refused");
              }
              node[0].awaitKubeletReady();
            })
            .build())
        .build());

    UpgradeFailedException failed =
        catchThrowableOfType(UpgradeFailedException.class, () -> node[0].upgrade());

    assertThat(failed.outcome()).as(failed.getMessage()).isEqualTo(RollbackOutcome.ROLLED_BACK);
    assertThat(lab.current()).contains(lab.versionOf(V1));
    assertTheInstallersBinaryIsThere(lab.host, HOST_LOCAL);
  }

  /** An installer that links its own binary renames that link over the node's, as a copy does. */
  private static void anInstallerLinksItsOwn(SimulatedHost host, String plugin, String target) {
    try {
      Path temp = CNI_BIN.resolve("." + plugin + ".new");
      host.ports().files().symlinkDurably(temp, target);
      host.fs().rename(temp, CNI_BIN.resolve(plugin));
      host.fs().fsync(CNI_BIN);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void aLinkAnInstallerPutOverTheNodesIsItsOwnThroughApplyAndReset() throws IOException {
    SimNode lab = new SimNode();
    lab.bootstrap(V1);
    String installers = "/opt/calico/bin/host-local";
    anInstallerLinksItsOwn(lab.host, "host-local", installers);

    ApplyResult applied = lab.node(V1).apply();
    lab.node(V1).apply();
    assertThat(applied.disowned()).containsExactly(HOST_LOCAL);
    assertThat(lab.host.ports().files().readLink(HOST_LOCAL)).isEqualTo(installers);

    lab.node(V1).reset();

    assertThat(lab.host.ports().files().readLink(HOST_LOCAL)).isEqualTo(installers);
    assertThat(lab.host.fs().lstat(BRIDGE)).isEmpty();
  }

  @Test
  void resetLeavesTheInstallersBinaries() throws IOException {
    SimNode lab = new SimNode();
    lab.bootstrap(V1);
    anInstallerCopiesItsOwn(lab.host, "host-local");
    lab.node(V1).apply();

    lab.node(V1).reset();

    assertTheInstallersBinaryIsThere(lab.host, HOST_LOCAL);
    assertThat(lab.host.fs().lstat(BRIDGE)).isEmpty();
  }
}
