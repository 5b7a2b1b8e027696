package dev.noneops.acceptance.system.agent;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.noneops.acceptance.docs.QuickStartDoc;
import dev.noneops.acceptance.packaging.Packages;
import dev.noneops.core.layout.HostPaths;
import dev.noneops.testkit.fixtures.cli.ConfigJson;
import dev.noneops.testkit.fixtures.sandbox.ExecResult;
import dev.noneops.testkit.fixtures.sandbox.SandboxRequirements;
import dev.noneops.testkit.fixtures.sandbox.SystemdSandbox;
import dev.noneops.testkit.fixtures.system.DummyLinkStandIn;
import java.io.IOException;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Debian package's life on a real systemd in a sandbox, from the quick start's own text
 * ({@code docs/guides/install.md}): the package installed with {@code apt-get} starts nothing;
 * the cluster block reads the CA and server from a kubeconfig with the real {@code kubectl}; the
 * configuration block writes the file; {@code preflight}, {@code plan}, {@code bootstrap} and
 * {@code status} run as printed. Then the package is upgraded to a newer build while the node
 * runs (only the agent's daemon restarts, on the new build), its removal is refused while the
 * node runs, and after {@code noneops reset} a purge leaves no file of noneops behind.
 *
 * <p>What the sandbox needs beside the page's text, and nothing else: no API server or kubeadm
 * ships here, so the kubeconfig is the test's (the example cluster's CA and server) and {@code
 * kubeadm} is a stand-in printing a token; the configuration gets the keys that point the node
 * at this test's artifact mirror (Debian's containerd and runc, the kubelet and CoreDNS
 * stand-ins) and its own LocalDNS address; the preflight and the bootstrap leave the kernel
 * alone ({@code --no-kernel-modules}: the sandbox shares the host's kernel).
 */
class QuickStartOnRealSystemdSystemTest {
  private static final String DNS_INTERFACE = "qsag0";
  private static final String DNS_ADDRESS = "169.254.20.63";
  private static final String CONFIG = "/etc/unbounded/agent/config.json";
  private static final String TOKEN = "qstart.0123456789abcdef";
  private static final String SERVER = "https://api.example.com:6443";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration APT = Duration.ofMinutes(3);

  private static AgentNodeFixture node;
  private static Path deb;

  @BeforeAll
  static void serveArtifacts() throws Exception {
    assumeThat(SandboxRequirements.unmetReason()).as("sandbox requirements").isEmpty();
    Optional<Path> built = Packages.deb();
    assumeThat(built).as("the .deb (built where dpkg-deb exists)").isPresent();
    assumeThat(Packages.onPath("kubectl"))
        .as("kubectl (Debian's kubernetes-client)")
        .isTrue();
    deb = built.orElseThrow();
    AgentNodeFixture.awaitPortsFree(Duration.ofMinutes(3));
    node = AgentNodeFixture.serve(DNS_INTERFACE, DNS_ADDRESS);
  }

  @AfterAll
  static void stopServing() throws Exception {
    if (node != null) {
      node.removeLeftLink();
      node.close();
    }
  }

  @Test
  void theQuickStartWorksAsPrintedAndThePackageUpgradesAndGoesCleanly() throws Exception {
    QuickStartDoc doc = QuickStartDoc.read();
    try (SystemdSandbox sandbox = SystemdSandbox.boot("quick-start")) {
      DummyLinkStandIn.installWhereNeeded(sandbox);
      List<String> before = noneopsFiles(sandbox);
      Files.copy(deb, sandbox.path("/root/" + deb.getFileName()));

      // Install, as printed: nothing starts.
      bash(sandbox, "cd /root\n" + doc.block("install")).orThrow();
      assertThat(sandbox.exec("dpkg-query", "-W", "-f", "${Status}", "noneops").stdout())
          .isEqualTo("install ok installed");
      assertThat(sandbox
              .systemctl("list-units", "--all", "--plain", "--no-legend", "noneops*")
              .stdout())
          .as("installing the package starts nothing")
          .isBlank();
      assertThat(Files.exists(sandbox.path("/etc/systemd/system/" + HostPaths.AGENT_UNIT)))
          .isFalse();
      assertThat(noneopsFiles(sandbox))
          .as("the listing a purge is held to sees the package's files")
          .contains("/usr/bin/noneops", "/usr/share/noneops/noneops.jar")
          .containsAll(before);

      // The cluster's values and the configuration, as printed.
      writeKubeconfigAndKubeadm(sandbox);
      bash(
              sandbox,
              "export KUBECONFIG=/root/quick-start/kubeconfig"
                  + " PATH=/root/quick-start/bin:$PATH\n"
                  + doc.block("cluster") + doc.block("config"))
          .orThrow();
      ObjectNode config = (ObjectNode) JSON.readTree(Files.readString(sandbox.path(CONFIG)));
      assertThat(config.path("Cluster").path("CaCertBase64").asText())
          .as("the CA kubectl read from the kubeconfig")
          .isEqualTo(ConfigJson.CA_BASE64);
      assertThat(config.path("Kubelet").path("Auth").path("BootstrapToken").asText())
          .isEqualTo(TOKEN);
      pointAtTheMirror(sandbox, config);

      // The node, as printed.
      for (String line : doc.lines("node")) {
        String command = switch (line) {
          case "noneops preflight" -> line + " --no-kernel-modules";
          case "noneops bootstrap" -> line + " --no-kernel-modules --kubelet-timeout 60s";
          default -> line;
        };
        ExecResult run = bash(sandbox, command);
        assertThat(run.exitCode())
            .as("%s%n%s", run.describe(), AgentNodeFixture.stackJournals(sandbox))
            .isZero();
      }
      assertThat(AgentNodeFixture.kubeletHealthy()).isTrue();
      String firstBuild = link(sandbox, HostPaths.AGENT_HOME + "/current");
      String agentPid = sandbox.unitProperty(HostPaths.AGENT_UNIT, "MainPID");
      Map<String, String> stackPids = stackPids(sandbox);

      // A newer build of the package while the node runs: only the daemon restarts, on it.
      Path newer = newerBuild(deb);
      Files.copy(newer, sandbox.path("/root/" + newer.getFileName()));
      ExecResult upgrade = bash(sandbox, "cd /root && apt-get install -y ./" + newer.getFileName());
      assertThat(upgrade.exitCode()).as(upgrade.describe()).isZero();
      assertThat(upgrade.stdout() + upgrade.stderr()).contains("the node's agent is now build");
      String secondBuild = link(sandbox, HostPaths.AGENT_HOME + "/current");
      assertThat(secondBuild).isNotEqualTo(firstBuild);
      assertThat(link(sandbox, HostPaths.AGENT_HOME + "/previous")).isEqualTo(firstBuild);
      assertThat(sandbox.unitProperty(HostPaths.AGENT_UNIT, "ActiveState")).isEqualTo("active");
      assertThat(sandbox.unitProperty(HostPaths.AGENT_UNIT, "MainPID")).isNotEqualTo(agentPid);
      assertThat(stackPids(sandbox)).as("the stack kept running").isEqualTo(stackPids);
      assertThat(AgentNodeFixture.kubeletHealthy()).isTrue();

      // Removal while the node runs: refused, nothing changed.
      ExecResult refused = bash(sandbox, "apt-get remove -y noneops");
      assertThat(refused.exitCode()).as(refused.describe()).isNotZero();
      assertThat(refused.stdout() + refused.stderr())
          .contains("a node runs on this host; run 'noneops reset' first");
      assertThat(sandbox.exec("dpkg-query", "-W", "-f", "${Status}", "noneops").stdout())
          .isEqualTo("install ok installed");
      assertThat(stackPids(sandbox)).isEqualTo(stackPids);
      assertThat(sandbox.exec("noneops", "version").exitCode()).isZero();

      // Reset, then purge: nothing of noneops is left.
      ExecResult reset = bash(sandbox, "noneops reset --yes");
      assertThat(reset.exitCode())
          .as("%s%n%s", reset.describe(), AgentNodeFixture.stackJournals(sandbox))
          .isZero();
      ExecResult purge = bash(sandbox, "apt-get purge -y noneops");
      assertThat(purge.exitCode()).as(purge.describe()).isZero();
      assertThat(sandbox.exec("dpkg-query", "-W", "-f", "${Status}", "noneops").stdout())
          .doesNotContain("installed");
      assertThat(noneopsFiles(sandbox)).isEqualTo(before);
      assertThat(Files.exists(sandbox.path("/opt/unbounded/node"))).isFalse();
    }
  }

  /** Runs {@code script} with bash inside the sandbox, as root, from {@code /}. */
  private static ExecResult bash(SystemdSandbox sandbox, String script) {
    return sandbox.exec(List.of("bash", "-euo", "pipefail", "-c", script), APT);
  }

  /** The kubeconfig of the example cluster and a kubeadm stand-in that prints a token. */
  private static void writeKubeconfigAndKubeadm(SystemdSandbox sandbox) throws IOException {
    Path dir = sandbox.path("/root/quick-start");
    Files.createDirectories(dir.resolve("bin"));
    Files.writeString(
        dir.resolve("kubeconfig"),
        String.join(
            "\n",
            "apiVersion: v1",
            "kind: Config",
            "clusters:",
            "- name: example",
            "  cluster:",
            "    server: " + SERVER,
            "    certificate-authority-data: " + ConfigJson.CA_BASE64,
            "users:",
            "- name: admin",
            "  user:",
            "    token: not-used",
            "contexts:",
            "- name: admin@example",
            "  context: {cluster: example, user: admin}",
            "current-context: admin@example",
            ""));
    Path kubeadm = dir.resolve("bin/kubeadm");
    Files.writeString(
        kubeadm,
        "#!/bin/sh\n# kubeadm token create --ttl 2h, without a cluster\n" + "echo " + TOKEN + "\n");
    Files.setPosixFilePermissions(kubeadm, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  /**
   * Adds to the page's configuration the keys the sandbox needs, and only those: the components'
   * versions and downloads of this test's mirror, and its LocalDNS address and interface.
   */
  private static void pointAtTheMirror(SystemdSandbox sandbox, ObjectNode config)
      throws IOException {
    ObjectNode mirror = (ObjectNode) JSON.readTree(node.base());
    for (String key : List.of("CRI", "Downloads", "LocalDNS")) {
      assertThat(config.has(key)).as("the page sets no " + key).isFalse();
      config.set(key, mirror.get(key));
    }
    config.set(
        "Cluster",
        ((ObjectNode) config.get("Cluster"))
            .put("Version", mirror.path("Cluster").path("Version").asText()));
    Files.writeString(
        sandbox.path(CONFIG),
        JSON.writerWithDefaultPrettyPrinter().writeValueAsString(config),
        UTF_8,
        StandardOpenOption.TRUNCATE_EXISTING);
  }

  /**
   * The package again with a newer version and another build of the jar (one entry more, so
   * another digest and build id), as a later build of the project would be.
   */
  private static Path newerBuild(Path deb) throws IOException, InterruptedException {
    Path work = Files.createTempDirectory("noneops-newer-deb");
    Path tree = work.resolve("tree");
    Packages.run("dpkg-deb", "-R", deb.toString(), tree.toString()).orThrow();
    Path jar = tree.resolve("usr/share/noneops/noneops.jar");
    try (FileSystem zip = FileSystems.newFileSystem(URI.create("jar:" + jar.toUri()), Map.of())) {
      Files.writeString(zip.getPath("META-INF/noneops-rebuild.txt"), "a later build\n");
    }
    Path control = tree.resolve("DEBIAN/control");
    List<String> lines = new ArrayList<>();
    String version = "";
    for (String line : Files.readAllLines(control)) {
      if (line.startsWith("Version: ")) {
        version = line.substring("Version: ".length()) + "+1";
        line = "Version: " + version;
      }
      lines.add(line);
    }
    Files.write(control, lines);
    Packages.run(
            "sh",
            "-c",
            "cd '" + tree + "' && find usr -type f -print0 | LC_ALL=C sort -z"
                + " | xargs -0 md5sum > DEBIAN/md5sums")
        .orThrow();
    Path newer = work.resolve("noneops_" + version + "_all.deb");
    Packages.run("dpkg-deb", "--root-owner-group", "--build", tree.toString(), newer.toString())
        .orThrow();
    return newer;
  }

  /** Every path whose name holds "noneops" under the trees a package or a node writes. */
  private static List<String> noneopsFiles(SystemdSandbox sandbox) {
    ExecResult find = sandbox.exec(
        List.of(
            "sh",
            "-c",
            "find /usr /etc /opt /var/lib /var/cache -xdev -name '*noneops*'"
                + " -not -path '/var/lib/noneops-sandbox*' 2>/dev/null | LC_ALL=C sort"),
        Duration.ofMinutes(1));
    return find.stdout().lines().toList();
  }

  private static Map<String, String> stackPids(SystemdSandbox sandbox) {
    return Map.of(
        HostPaths.KUBELET_UNIT,
        sandbox.unitProperty(HostPaths.KUBELET_UNIT, "MainPID"),
        "containerd.service",
        sandbox.unitProperty("containerd.service", "MainPID"),
        "localdns.service",
        sandbox.unitProperty("localdns.service", "MainPID"));
  }

  private static String link(SystemdSandbox sandbox, String path) throws IOException {
    return Files.readSymbolicLink(sandbox.path(path)).toString();
  }
}
