package dev.noneops.acceptance.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.google.common.hash.Hashing;
import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.config.AgentConfigParser;
import dev.noneops.core.node.UpgradeAndCommitResult;
import dev.noneops.core.node.UpgradeFailedException;
import dev.noneops.core.node.UpgradeFailedException.RollbackOutcome;
import dev.noneops.core.node.UpgradeOptions;
import dev.noneops.testkit.fixtures.node.SimNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * An upgrade whose target writes, for the first time, a shared path where a file of the host's
 * is (kubelet's own {@code /var/lib/kubelet/kubeconfig}, which it wrote at its TLS bootstrap,
 * when the target switches from a bootstrap token to an exec credential) takes that file over
 * as {@code apply} does: the original is saved below {@code /etc/unbounded/agent/originals}, and
 * the upgrade's saved configuration holds that save too, so a rollback puts the host's file back
 * and forgets the save.
 */
class TakeOverInAnUpgradeTest {
  private static final AgentConfig TOKEN = SimNode.config("1.31.4", "1.7.22", "blue");
  private static final AgentConfig EXEC = exec("1.31.5");
  private static final Path KUBECONFIG = Path.of("/var/lib/kubelet/kubeconfig");
  private static final Path ORIGINALS = Path.of("/etc/unbounded/agent/originals");
  private static final String KUBELETS = "# written by kubelet at its TLS bootstrap\n";

  private static AgentConfig exec(String k8s) {
    String json = """
        {
          "MachineName": "worker-1",
          "Cluster": { "CaCertBase64": "%s", "ClusterDNS": "10.0.0.10", "Version": "v%s" },
          "Kubelet": {
            "ApiServer": "api.example.com:6443",
            "Auth": { "ExecCredential": {
              "command": "/usr/local/bin/token-helper",
              "apiVersion": "client.authentication.k8s.io/v1" } },
            "Labels": { "example.com/pool": "blue" },
            "RegisterWithTaints": []
          },
          "CRI": { "Containerd": { "Version": "1.7.22" }, "Runc": {} },
          "CNI": {},
          "LocalDNS": {},
          "OCIImage": ""
        }
        """.formatted(SimNode.CA_BASE64, k8s);
    return AgentConfigParser.parseAndValidate(json.getBytes(StandardCharsets.UTF_8), "amd64");
  }

  private static SimNode aTokenNodeWhoseKubeletWroteItsKubeconfig() throws IOException {
    SimNode lab = new SimNode();
    lab.bootstrap(TOKEN);
    lab.host.fs().seedFile(KUBECONFIG, KUBELETS, 0600);
    lab.publish(EXEC);
    return lab;
  }

  @Test
  void anUpgradeFromATokenToAnExecCredentialTakesOverKubeletsKubeconfig() throws IOException {
    SimNode lab = aTokenNodeWhoseKubeletWroteItsKubeconfig();

    UpgradeAndCommitResult done =
        lab.node(EXEC, Optional.of(TOKEN)).upgradeAndCommit(UpgradeOptions.DEFAULTS);

    assertThat(done.upgrade().targetVersion()).isEqualTo(lab.versionOf(EXEC));
    assertThat(lab.host.ports().files().readString(KUBECONFIG)).contains("token-helper");
    assertThat(lab.host.ports().files().list(ORIGINALS)).hasSize(1);
  }

  @Test
  void aRollbackPutsTheHostsFileBackAndForgetsItsSave() throws IOException {
    SimNode lab = aTokenNodeWhoseKubeletWroteItsKubeconfig();
    lab.kubeletNeverReady.add(lab.versionOf(EXEC));

    UpgradeFailedException failed = catchThrowableOfType(
        UpgradeFailedException.class, () -> lab.node(EXEC, Optional.of(TOKEN)).upgrade());

    assertThat(failed.outcome()).as(failed.getMessage()).isEqualTo(RollbackOutcome.ROLLED_BACK);
    assertThat(lab.host.ports().files().readString(KUBECONFIG)).isEqualTo(KUBELETS);
    assertThat(lab.host.fs().lstat(ORIGINALS.resolve(savedName(KUBECONFIG)))).isEmpty();
  }

  /**
   * A take-over a power cut interrupted after the original was saved and before the path was
   * recorded leaves a save of what the file held then; the host's file changed since is the one
   * a later take-over saves and a reset puts back.
   */
  @Test
  void aSaveLeftByAnInterruptedTakeOverGivesWayToWhatTheHostHasNow() throws IOException {
    SimNode lab = new SimNode();
    Path sysctl = Path.of("/etc/sysctl.d/99-kubernetes.conf");
    String then = "vm.swappiness = 60\n";
    lab.host
        .fs()
        .seedFile(
            ORIGINALS.resolve(savedName(sysctl)),
            ("{\"path\":\"" + sysctl + "\",\"kind\":\"file\",\"mode\":\"644\",\"uid\":0,\"gid\":0,"
                    + "\"content\":\""
                    + Base64.getEncoder().encodeToString(then.getBytes(StandardCharsets.UTF_8))
                    + "\"}")
                .getBytes(StandardCharsets.UTF_8),
            0600);
    lab.host.fs().seedFile(sysctl, "vm.swappiness = 10\n", 0644);

    lab.bootstrap(TOKEN);
    lab.node(TOKEN).reset();

    assertThat(lab.host.ports().files().readString(sysctl)).isEqualTo("vm.swappiness = 10\n");
  }

  /** The name of the save of {@code path}'s original: the first 24 hex digits of its sha256. */
  private static String savedName(Path path) {
    return Hashing.sha256()
            .hashString(path.toString(), StandardCharsets.UTF_8)
            .toString()
            .substring(0, 24)
        + ".json";
  }
}
