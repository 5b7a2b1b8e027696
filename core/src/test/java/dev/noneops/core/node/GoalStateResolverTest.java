package dev.noneops.core.node;

import static dev.noneops.core.config.ConfigFixtures.config;
import static dev.noneops.core.config.ConfigFixtures.execTree;
import static dev.noneops.core.config.ConfigFixtures.tokenTree;
import static dev.noneops.core.config.ConfigFixtures.with;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.config.AgentConfig.KubeletAuth;
import dev.noneops.core.config.ConfigFixtures;
import dev.noneops.core.config.InvalidConfigException;
import dev.noneops.core.config.InvalidConfigException.ConfigViolation;
import dev.noneops.core.goalstate.Artifact;
import dev.noneops.core.goalstate.DownloadOverrides;
import dev.noneops.core.goalstate.KubeletSpec;
import dev.noneops.core.goalstate.MachineGoalState;
import dev.noneops.core.goalstate.NodeStart;
import dev.noneops.core.goalstate.RootFs;
import dev.noneops.core.goalstate.internal.GoalStateResolver;
import dev.noneops.core.layout.Layout;
import dev.noneops.ports.host.HostInfo;
import java.net.URI;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GoalStateResolverTest {
  private static final Layout LAYOUT = new Layout(Path.of("/opt/unbounded/node"));
  private static final HostInfo HOST = new HostInfo(
      "amd64",
      "6.8.0-45-generic",
      "node-a",
      List.of(),
      false,
      List.of("192.168.1.1", "169.254.20.10", "fd00::1"));

  private static MachineGoalState resolve(ObjectNode tree) {
    return GoalStateResolver.resolve(config(tree), HOST, LAYOUT);
  }

  private static Artifact artifact(MachineGoalState gs, String name) {
    return gs.rootFs().artifacts().stream()
        .filter(a -> a.name().equals(name))
        .findFirst()
        .orElseThrow();
  }

  private static String url(MachineGoalState gs, String name) {
    return artifact(gs, name).url().toString();
  }

  @Test
  void usesUpstreamDefaultVersionsAndCrictlFollowingTheKubernetesMinor() {
    RootFs r = resolve(tokenTree()).rootFs();

    assertThat(List.of(
            r.versions().kubernetes(),
            r.versions().containerd(),
            r.versions().runc(),
            r.versions().cniPlugins(),
            r.versions().crictl(),
            r.versions().localDns()))
        .containsExactly("1.31.2", "2.0.4", "1.1.12", "1.5.1", "1.31.0", "1.11.3");
  }

  @Test
  void configuredVersionsBeatDefaultsAndDownloadVersionsBeatBoth() {
    var tree = with(tokenTree(), "CRI.Containerd.Version", "2.1.0");
    tree = with(tree, "CRI.Runc.Version", "1.2.0");
    tree = with(tree, "CNI.PluginVersion", "1.6.0");
    tree = with(tree, "LocalDNS.Version", "1.12.0");
    RootFs configured = resolve(tree).rootFs();
    tree = with(tree, "Downloads.Containerd.Version", "2.1.1");
    tree = with(tree, "Downloads.Runc.Version", "1.2.1");
    tree = with(tree, "Downloads.CNI.Version", "1.6.1");
    tree = with(tree, "Downloads.LocalDNS.Version", "1.12.1");
    tree = with(tree, "Downloads.Kubernetes.Version", "1.32.1");
    tree = with(tree, "Downloads.Crictl.Version", "1.32.2");
    RootFs overridden = resolve(tree).rootFs();

    assertThat(List.of(
            configured.versions().containerd(),
            configured.versions().runc(),
            configured.versions().cniPlugins(),
            configured.versions().localDns()))
        .containsExactly("2.1.0", "1.2.0", "1.6.0", "1.12.0");
    assertThat(List.of(
            overridden.versions().kubernetes(),
            overridden.versions().containerd(),
            overridden.versions().runc(),
            overridden.versions().cniPlugins(),
            overridden.versions().crictl(),
            overridden.versions().localDns()))
        .containsExactly("1.32.1", "2.1.1", "1.2.1", "1.6.1", "1.32.2", "1.12.1");
  }

  @Test
  void crictlFollowsTheEffectiveKubernetesVersion() {
    assertThat(resolve(with(tokenTree(), "Downloads.Kubernetes.Version", "1.33.0-rc.1"))
            .rootFs()
            .versions()
            .crictl())
        .isEqualTo("1.33.0");
  }

  @Test
  void downloadsFromUpstreamLocationsByDefault() {
    MachineGoalState gs = resolve(tokenTree());

    assertThat(gs.rootFs().artifacts())
        .extracting(Artifact::name)
        .containsExactly(
            "kubelet",
            "kubectl",
            "kube-proxy",
            "containerd",
            "runc",
            "cni-plugins",
            "crictl",
            "coredns");
    assertThat(url(gs, "kubelet")).isEqualTo("https://dl.k8s.io/v1.31.2/bin/linux/amd64/kubelet");
    assertThat(url(gs, "kube-proxy"))
        .isEqualTo("https://dl.k8s.io/v1.31.2/bin/linux/amd64/kube-proxy");
    assertThat(url(gs, "containerd"))
        .isEqualTo(
            "https://github.com/containerd/containerd/releases/download/v2.0.4/containerd-2.0.4-linux-amd64.tar.gz");
    assertThat(url(gs, "runc"))
        .isEqualTo("https://github.com/opencontainers/runc/releases/download/v1.1.12/runc.amd64");
    assertThat(url(gs, "cni-plugins"))
        .isEqualTo(
            "https://github.com/containernetworking/plugins/releases/download/v1.5.1/cni-plugins-linux-amd64-v1.5.1.tgz");
    assertThat(url(gs, "crictl"))
        .isEqualTo(
            "https://github.com/kubernetes-sigs/cri-tools/releases/download/v1.31.0/crictl-v1.31.0-linux-amd64.tar.gz");
    assertThat(url(gs, "coredns"))
        .isEqualTo(
            "https://github.com/coredns/coredns/releases/download/v1.11.3/coredns_1.11.3_linux_amd64.tgz");
  }

  @Test
  void installsEachArtifactWhereTheLayoutExpectsIt() {
    MachineGoalState gs = resolve(tokenTree());

    assertThat(artifact(gs, "kubelet").install()).isEqualTo(new Artifact.Install.Binary("kubelet"));
    assertThat(artifact(gs, "kubectl").install()).isEqualTo(new Artifact.Install.Binary("kubectl"));
    assertThat(artifact(gs, "runc").install()).isEqualTo(new Artifact.Install.Binary("runc"));
    assertThat(artifact(gs, "containerd").install())
        .isEqualTo(new Artifact.Install.Tarball("bin/", "bin", List.of()));
    assertThat(artifact(gs, "cni-plugins").install())
        .isEqualTo(new Artifact.Install.Tarball("", "libexec/cni", List.of()));
    assertThat(artifact(gs, "crictl").install())
        .isEqualTo(new Artifact.Install.Tarball("", "bin", List.of("crictl")));
    assertThat(artifact(gs, "coredns").install())
        .isEqualTo(new Artifact.Install.Tarball("", "bin", List.of("coredns")));
  }

  @Test
  void verifiesEveryArtifactAgainstTheChecksumItsProjectPublishes() {
    MachineGoalState gs = resolve(tokenTree());

    assertThat(artifact(gs, "kubectl").checksum())
        .isEqualTo(new Artifact.Checksum.Published(
            URI.create("https://dl.k8s.io/v1.31.2/bin/linux/amd64/kubectl.sha256")));
    assertThat(artifact(gs, "containerd").checksum())
        .isEqualTo(new Artifact.Checksum.Published(
            URI.create(
                "https://github.com/containerd/containerd/releases/download/v2.0.4/containerd-2.0.4-linux-amd64.tar.gz.sha256sum"),
            "containerd-2.0.4-linux-amd64.tar.gz",
            false));
    assertThat(artifact(gs, "runc").checksum())
        .isEqualTo(new Artifact.Checksum.Published(
            URI.create(
                "https://github.com/opencontainers/runc/releases/download/v1.1.12/runc.sha256sum"),
            "runc.amd64",
            false));
    assertThat(artifact(gs, "cni-plugins").checksum())
        .isEqualTo(new Artifact.Checksum.Published(
            URI.create(
                "https://github.com/containernetworking/plugins/releases/download/v1.5.1/cni-plugins-linux-amd64-v1.5.1.tgz.sha256"),
            "cni-plugins-linux-amd64-v1.5.1.tgz",
            false));
    assertThat(artifact(gs, "crictl").checksum())
        .isEqualTo(new Artifact.Checksum.Published(
            URI.create(
                "https://github.com/kubernetes-sigs/cri-tools/releases/download/v1.31.0/crictl-v1.31.0-linux-amd64.tar.gz.sha256"),
            "crictl-v1.31.0-linux-amd64.tar.gz",
            false));
    assertThat(artifact(gs, "coredns").checksum())
        .isEqualTo(new Artifact.Checksum.Published(
            URI.create(
                "https://github.com/coredns/coredns/releases/download/v1.11.3/coredns_1.11.3_linux_amd64.tgz.sha256"),
            "coredns_1.11.3_linux_amd64.tgz",
            false));
  }

  @Test
  void aPinnedDigestWinsOverThePublishedChecksumAndNamesAnotherVersion() {
    String hex = "ab".repeat(32);
    var tree = with(tokenTree(), "Downloads.Runc.SHA256", hex.toUpperCase(java.util.Locale.ROOT));
    tree = with(tree, "Downloads.Kubernetes.SHA256.kubelet", hex);
    MachineGoalState gs = resolve(tree);

    assertThat(artifact(gs, "runc").checksum()).isEqualTo(new Artifact.Checksum.Pinned(hex));
    assertThat(artifact(gs, "kubelet").checksum()).isEqualTo(new Artifact.Checksum.Pinned(hex));
    assertThat(artifact(gs, "kubectl").checksum()).isInstanceOf(Artifact.Checksum.Published.class);
    assertThat(gs.rootFs().versionName())
        .as("a pin names the exact content")
        .isNotEqualTo(resolve(tokenTree()).rootFs().versionName());
  }

  @Test
  void anArtifactAllowedUnverifiedStillLooksForItsPublishedChecksum() {
    MachineGoalState gs = resolve(with(tokenTree(), "Downloads.CNI.AllowUnverified", true));

    assertThat(artifact(gs, "cni-plugins").checksum())
        .isEqualTo(new Artifact.Checksum.Published(
            URI.create(
                "https://github.com/containernetworking/plugins/releases/download/v1.5.1/cni-plugins-linux-amd64-v1.5.1.tgz.sha256"),
            "cni-plugins-linux-amd64-v1.5.1.tgz",
            true));
    assertThat(gs.rootFs().versionName())
        .as("allowing changes no binary")
        .isEqualTo(resolve(tokenTree()).rootFs().versionName());
  }

  @Test
  void theChecksumOfASignedUrlIsBesideItsPathWithTheQueryKept() {
    String query = "?X-Amz-Credential=AKIA%2F20261204&X-Amz-Signature=abc123";
    String inTemplate = query.replace("%", "%%");
    var tree =
        with(tokenTree(), "Downloads.Kubernetes.URL", "https://m/k8s/v%s/%s/%s" + inTemplate);
    tree =
        with(tree, "Downloads.Containerd.URL", "https://m/c/%s/containerd-%s-%s.tgz" + inTemplate);
    tree = with(tree, "Downloads.Runc.URL", "https://m/r/v%s/runc.%s" + inTemplate);
    MachineGoalState gs = resolve(tree);

    assertThat(((Artifact.Checksum.Published) artifact(gs, "kubelet").checksum()).url())
        .hasToString("https://m/k8s/v1.31.2/amd64/kubelet.sha256" + query);
    assertThat(((Artifact.Checksum.Published) artifact(gs, "containerd").checksum()).url())
        .hasToString("https://m/c/2.0.4/containerd-2.0.4-amd64.tgz.sha256sum" + query);
    assertThat(((Artifact.Checksum.Published) artifact(gs, "runc").checksum()).url())
        .hasToString("https://m/r/v1.1.12/runc.sha256sum" + query);
    assertThat(((Artifact.Checksum.Published) artifact(gs, "runc").checksum()).entry())
        .isEqualTo("runc.amd64");
  }

  @Test
  void aChecksumUrlOfItsOwnIsATemplateWithTheArtifactsArgumentsAndNamesNoOtherVersion() {
    var tree = with(tokenTree(), "Downloads.Kubernetes.URL", "https://m/k8s/v%s/%s/%s?sig=1");
    tree = with(tree, "Downloads.Kubernetes.SHA256URL", "https://m/k8s/v%s/%s/%s.sha256?sig=2");
    tree = with(tree, "Downloads.Runc.SHA256URL", "https://sums.example.com/runc/v%s/SUMS?sig=3");
    MachineGoalState gs = resolve(tree);

    assertThat(artifact(gs, "kube-proxy").checksum())
        .isEqualTo(new Artifact.Checksum.Published(
            URI.create("https://m/k8s/v1.31.2/amd64/kube-proxy.sha256?sig=2")));
    assertThat(artifact(gs, "runc").checksum())
        .isEqualTo(new Artifact.Checksum.Published(
            URI.create("https://sums.example.com/runc/v1.1.12/SUMS?sig=3"), "runc.amd64", false));
    assertThat(gs.rootFs().versionName())
        .as("where the checksum is read changes no binary")
        .isEqualTo(
            resolve(with(tokenTree(), "Downloads.Kubernetes.URL", "https://m/k8s/v%s/%s/%s?sig=1"))
                .rootFs()
                .versionName());
  }

  @Test
  void aBaseUrlReplacesTheDefaultBaseWithOneTrailingSlashTrimmed() {
    var tree = with(tokenTree(), "Downloads.Kubernetes.BaseURL", "https://mirror.example.com/k8s/");
    tree = with(tree, "Downloads.Containerd.BaseURL", "https://mirror.example.com/containerd");
    tree = with(tree, "Downloads.Runc.BaseURL", "https://mirror.example.com/runc//");
    tree = with(tree, "Downloads.CNI.BaseURL", "https://mirror.example.com/cni");
    tree = with(tree, "Downloads.Crictl.BaseURL", "https://mirror.example.com/crictl");
    tree = with(tree, "Downloads.LocalDNS.BaseURL", "https://mirror.example.com/coredns");
    MachineGoalState gs = resolve(tree);

    assertThat(url(gs, "kubelet"))
        .isEqualTo("https://mirror.example.com/k8s/v1.31.2/bin/linux/amd64/kubelet");
    assertThat(url(gs, "containerd"))
        .isEqualTo(
            "https://mirror.example.com/containerd/v2.0.4/containerd-2.0.4-linux-amd64.tar.gz");
    assertThat(url(gs, "runc")).isEqualTo("https://mirror.example.com/runc//v1.1.12/runc.amd64");
    assertThat(url(gs, "cni-plugins"))
        .isEqualTo("https://mirror.example.com/cni/v1.5.1/cni-plugins-linux-amd64-v1.5.1.tgz");
    assertThat(url(gs, "crictl"))
        .isEqualTo("https://mirror.example.com/crictl/v1.31.0/crictl-v1.31.0-linux-amd64.tar.gz");
    assertThat(url(gs, "coredns"))
        .isEqualTo("https://mirror.example.com/coredns/v1.11.3/coredns_1.11.3_linux_amd64.tgz");
  }

  @Test
  void aUrlTemplateWinsOverTheBaseUrlWithUpstreamArgumentOrder() {
    var tree = with(tokenTree(), "Downloads.Kubernetes.BaseURL", "https://ignored.example.com");
    tree = with(tree, "Downloads.Kubernetes.URL", "https://m/k8s/%s/%s/%s");
    tree = with(tree, "Downloads.Containerd.URL", "https://m/c/%s/%s/%s");
    tree = with(tree, "Downloads.Runc.URL", "https://m/r/%s/%s");
    tree = with(tree, "Downloads.CNI.URL", "https://m/cni/%s/%s/%s");
    tree = with(tree, "Downloads.Crictl.URL", "https://m/crictl/%s/%s/%s/%s");
    tree = with(tree, "Downloads.LocalDNS.URL", "https://m/dns/%s/%s/%s");
    MachineGoalState gs = resolve(tree);

    assertThat(url(gs, "kubelet")).isEqualTo("https://m/k8s/1.31.2/amd64/kubelet");
    assertThat(artifact(gs, "kubelet").checksum())
        .isEqualTo(new Artifact.Checksum.Published(
            URI.create("https://m/k8s/1.31.2/amd64/kubelet.sha256")));
    assertThat(url(gs, "containerd")).isEqualTo("https://m/c/2.0.4/2.0.4/amd64");
    assertThat(url(gs, "runc")).isEqualTo("https://m/r/1.1.12/amd64");
    assertThat(artifact(gs, "runc").checksum())
        .isEqualTo(new Artifact.Checksum.Published(
            URI.create("https://m/r/1.1.12/runc.sha256sum"), "amd64", false));
    assertThat(url(gs, "cni-plugins")).isEqualTo("https://m/cni/1.5.1/amd64/1.5.1");
    assertThat(url(gs, "crictl")).isEqualTo("https://m/crictl/1.31.0/1.31.0/linux/amd64");
    assertThat(url(gs, "coredns")).isEqualTo("https://m/dns/1.11.3/1.11.3/amd64");
  }

  @Test
  void overridesGivenBesideTheConfigurationReplaceItsEntries() {
    var tree = with(tokenTree(), "Downloads.Runc.BaseURL", "https://from-config");
    tree = with(tree, "Downloads.CNI.BaseURL", "https://cni-from-config");
    DownloadOverrides overrides = new DownloadOverrides(
        AgentConfig.Download.NONE,
        AgentConfig.Download.NONE,
        new AgentConfig.Download("https://from-params", "", ""),
        AgentConfig.Download.NONE,
        AgentConfig.Download.NONE,
        AgentConfig.Download.NONE);

    MachineGoalState gs = GoalStateResolver.resolve(config(tree), overrides, HOST, LAYOUT);

    assertThat(url(gs, "runc")).isEqualTo("https://from-params/v1.1.12/runc.amd64");
    assertThat(url(gs, "cni-plugins")).startsWith("https://cni-from-config/");
  }

  @Test
  void usesHostNativePaths() {
    NodeStart ns = resolve(tokenTree()).nodeStart();

    assertThat(ns.kubelet().kubeletBinPath()).isEqualTo("/opt/unbounded/node/current/bin/kubelet");
    assertThat(ns.containerd().containerdBinPath())
        .isEqualTo("/opt/unbounded/node/current/bin/containerd");
    assertThat(ns.containerd().runcBinaryPath()).isEqualTo("/opt/unbounded/node/current/bin/runc");
    assertThat(ns.localDns().binPath()).isEqualTo("/opt/unbounded/node/current/bin/coredns");
    assertThat(ns.containerd().cniBinDir()).isEqualTo("/opt/cni/bin");
    assertThat(ns.containerd().cniConfDir()).isEqualTo("/etc/cni/net.d");
    assertThat(ns.containerd().sandboxImage())
        .isEqualTo("mcr.microsoft.com/oss/kubernetes/pause:3.9");
    assertThat(ns.containerd().metricsAddress()).isEqualTo("0.0.0.0:10257");
  }

  @Test
  void pointsKubeletAtLocalDnsAndLocalDnsAtTheClusterDns() {
    NodeStart ns = resolve(tokenTree()).nodeStart();

    assertThat(ns.kubelet().clusterDns()).isEqualTo("169.254.20.10");
    assertThat(ns.localDns().bindAddress()).isEqualTo("169.254.20.10");
    assertThat(ns.localDns().clusterDns()).isEqualTo("10.0.0.10");
    assertThat(ns.localDns().interfaceName()).isEqualTo("localdns0");
    assertThat(ns.localDns().clusterDomain()).isEqualTo("cluster.local");
    assertThat(ns.localDns().port()).isEqualTo(53);
    assertThat(ns.localDns().upstreams())
        .as("the host's resolvers except LocalDNS itself")
        .containsExactly("192.168.1.1", "fd00::1");
  }

  @Test
  void carriesKubeletCredentialsCaLabelsAndTaints() {
    KubeletSpec k = resolve(tokenTree()).nodeStart().kubelet();

    assertThat(k.auth()).isEqualTo(new KubeletAuth.BootstrapToken(ConfigFixtures.TOKEN));
    assertThat(k.apiServer()).isEqualTo("https://api.example.com:6443");
    assertThat(k.caCertPem()).isEqualTo(Base64.getDecoder().decode(ConfigFixtures.CA_BASE64));
    assertThat(new String(k.caCertPem(), java.nio.charset.StandardCharsets.US_ASCII))
        .startsWith("-----BEGIN CERTIFICATE-----");
    assertThat(k.nodeLabels())
        .containsExactly(Map.entry("example.com/pool", "blue"), Map.entry("tier", ""));
    assertThat(k.registerWithTaints()).containsExactly("dedicated=infra:NoSchedule");
    assertThat(resolve(execTree()).nodeStart().kubelet().auth())
        .isInstanceOf(KubeletAuth.ExecCredential.class);
  }

  @Test
  void takesHostFacts() {
    HostInfo gpuHost = new HostInfo(
        "arm64",
        "6.1.0",
        "gpu-1",
        List.of(Path.of("/dev/nvidia0"), Path.of("/dev/nvidiactl")),
        true,
        List.of());
    MachineGoalState gs = GoalStateResolver.resolve(config(tokenTree()), gpuHost, LAYOUT);

    assertThat(gs.rootFs().hostArch()).isEqualTo("arm64");
    assertThat(gs.rootFs().hostKernel()).isEqualTo("6.1.0");
    assertThat(gs.rootFs().hostname()).isEqualTo("gpu-1");
    assertThat(gs.rootFs().gpuDevices())
        .containsExactly(Path.of("/dev/nvidia0"), Path.of("/dev/nvidiactl"));
    assertThat(gs.rootFs().hostDevicePaths()).containsExactly(Path.of("/dev/kvm"));
    assertThat(gs.nodeStart().gpu()).isTrue();
    assertThat(gs.nodeStart().containerd().nvidiaRuntime()).isTrue();
    assertThat(url(gs, "runc")).endsWith("/runc.arm64");
    assertThat(resolve(tokenTree()).rootFs().hostDevicePaths()).isEmpty();
    assertThat(resolve(tokenTree()).nodeStart().gpu()).isFalse();
  }

  @Test
  void namesTheVersionDirectoryWithVersionFor() {
    assertThat(resolve(tokenTree()).rootFs().versionName()).matches("1\\.31\\.2-[0-9a-f]{12}");
  }

  @Test
  void refusesAnInvalidConfigurationWithEveryViolation() {
    var tree = with(tokenTree(), "Cluster.Version", "../x");
    tree = with(tree, "Kubelet.Auth.BootstrapToken", "");
    var c = config(tree);
    HostInfo s390 = new HostInfo("s390x", "6.8.0", "n", List.of(), false, List.of());

    assertThatThrownBy(() -> GoalStateResolver.resolve(c, s390, LAYOUT))
        .isInstanceOfSatisfying(
            InvalidConfigException.class,
            e -> assertThat(e.violations())
                .containsExactly(
                    new ConfigViolation(
                        "host.arch", "unsupported architecture 's390x' (supported: amd64, arm64)"),
                    new ConfigViolation(
                        "Cluster.Version", "must be a semantic version such as 1.31.2, got '../x'"),
                    new ConfigViolation(
                        "Kubelet.Auth", "one of BootstrapToken or ExecCredential must be set")));
  }
}
