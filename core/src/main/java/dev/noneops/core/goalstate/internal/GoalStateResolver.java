package dev.noneops.core.goalstate.internal;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.config.AgentConfigParser;
import dev.noneops.core.config.DownloadArtifact;
import dev.noneops.core.config.VersionFor;
import dev.noneops.core.goalstate.Artifact;
import dev.noneops.core.goalstate.ContainerdSpec;
import dev.noneops.core.goalstate.DownloadOverrides;
import dev.noneops.core.goalstate.KubeletSpec;
import dev.noneops.core.goalstate.LocalDnsSpec;
import dev.noneops.core.goalstate.MachineGoalState;
import dev.noneops.core.goalstate.NodeStart;
import dev.noneops.core.goalstate.RootFs;
import dev.noneops.core.layout.Layout;
import dev.noneops.core.layout.NodeConstants;
import dev.noneops.ports.host.HostInfo;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * Resolves the goal state of a host-native node from its configuration and the host's facts:
 * effective versions (a download override's {@code Version} beats the configured version, which
 * beats the default; crictl follows the Kubernetes minor version), every artifact with its URL and
 * checksum source, the version directory name, and the host-native paths (binaries under
 * {@code <layout>/current/bin}, CNI plugins under {@code current/libexec/cni}, no machine
 * directory). The configuration is validated first: an invalid one yields
 * {@link dev.noneops.core.config.InvalidConfigException} and no goal state.
 */
public final class GoalStateResolver {
  /** containerd's sandbox (pause) image, as upstream. */
  public static final String SANDBOX_IMAGE = NodeConstants.SANDBOX_IMAGE;
  /** Where containerd looks for CNI plugins: ours are linked here, and CNI agents install theirs here. */
  public static final String CNI_BIN_DIR = "/opt/cni/bin";

  public static final String CNI_CONF_DIR = "/etc/cni/net.d";
  public static final String CONTAINERD_METRICS_ADDRESS = NodeConstants.CONTAINERD_METRICS_ADDRESS;
  public static final int LOCALDNS_PORT = 53;
  public static final Path KVM_DEVICE = Path.of("/dev/kvm");

  /** The Kubernetes binaries a version installs, each beside its published {@code .sha256}. */
  public static final List<String> KUBERNETES_BINARIES = DownloadArtifact.KUBERNETES_BINARIES;
  /** The document beside runc's binaries listing the SHA-256 of every architecture's. */
  public static final String RUNC_CHECKSUMS = "runc.sha256sum";
  /** The LocalDNS server's binary name in {@code bin}. */
  public static final String LOCALDNS_BINARY = "coredns";

  private GoalStateResolver() {}

  /** The goal state of {@code config} (with its own {@code Downloads}) on {@code host}. */
  public static MachineGoalState resolve(AgentConfig config, HostInfo host, Layout layout) {
    AgentConfig c = config.normalized();
    AgentConfigParser.validate(c, host.arch());
    return new Resolution(c, host, layout).goalState();
  }

  /**
   * The goal state of {@code config} with {@code overrides} applied on top of its own
   * {@code Downloads} (an artifact set in {@code overrides} replaces the configuration's entry).
   */
  public static MachineGoalState resolve(
      AgentConfig config, DownloadOverrides overrides, HostInfo host, Layout layout) {
    return resolve(overrides.appliedTo(config), host, layout);
  }

  /** One resolution of a valid, normalised configuration. */
  private static final class Resolution {
    private final AgentConfig config;
    private final HostInfo host;
    private final Layout layout;
    private final AgentConfig.Downloads downloads;
    private final String kubernetes;
    private final String containerd;
    private final String runc;
    private final String cni;
    private final String crictl;
    private final String localDns;

    Resolution(AgentConfig config, HostInfo host, Layout layout) {
      this.config = config;
      this.host = host;
      this.layout = layout;
      this.downloads = config.downloads();
      this.kubernetes = config.effectiveKubernetesVersion();
      this.containerd = config.effectiveContainerdVersion();
      this.runc = config.effectiveRuncVersion();
      this.cni = config.effectiveCniPluginVersion();
      this.localDns = config.effectiveLocalDnsVersion();
      this.crictl = config.effectiveCrictlVersion();
    }

    MachineGoalState goalState() {
      RootFs rootFs = new RootFs(
          VersionFor.of(config, host.arch()),
          host.arch(),
          host.kernelRelease(),
          host.hostname(),
          config.effectiveVersions(),
          artifacts(),
          host.gpuDevices(),
          host.kvmPresent() ? List.of(KVM_DEVICE) : List.of());
      return new MachineGoalState(rootFs, nodeStart());
    }

    private List<Artifact> artifacts() {
      String arch = host.arch();
      List<Artifact> artifacts = new ArrayList<>();
      for (String binary : KUBERNETES_BINARIES) {
        URI url = URI.create(
            DownloadArtifact.KUBERNETES.url(downloads.kubernetes(), kubernetes, arch, binary));
        URI document = checksumUrl(DownloadArtifact.KUBERNETES, kubernetes, binary)
            .orElseGet(() -> BesideTheArtifact.withSuffix(url, ".sha256"));
        artifacts.add(new Artifact(
            binary,
            url,
            checksum(DownloadArtifact.KUBERNETES, binary, url, document, ""),
            new Artifact.Install.Binary(binary)));
      }
      URI containerdUrl = uri(DownloadArtifact.CONTAINERD, containerd);
      artifacts.add(new Artifact(
          "containerd",
          containerdUrl,
          single(
              DownloadArtifact.CONTAINERD,
              containerd,
              containerdUrl,
              BesideTheArtifact.withSuffix(containerdUrl, ".sha256sum")),
          new Artifact.Install.Tarball("bin/", Layout.BIN, List.of())));
      URI runcUrl = uri(DownloadArtifact.RUNC, runc);
      artifacts.add(new Artifact(
          "runc",
          runcUrl,
          single(
              DownloadArtifact.RUNC,
              runc,
              runcUrl,
              BesideTheArtifact.sibling(runcUrl, RUNC_CHECKSUMS)),
          new Artifact.Install.Binary("runc")));
      URI cniUrl = uri(DownloadArtifact.CNI, cni);
      artifacts.add(new Artifact(
          "cni-plugins",
          cniUrl,
          single(
              DownloadArtifact.CNI, cni, cniUrl, BesideTheArtifact.withSuffix(cniUrl, ".sha256")),
          new Artifact.Install.Tarball("", Layout.CNI, List.of())));
      URI crictlUrl = uri(DownloadArtifact.CRICTL, crictl);
      artifacts.add(new Artifact(
          "crictl",
          crictlUrl,
          single(
              DownloadArtifact.CRICTL,
              crictl,
              crictlUrl,
              BesideTheArtifact.withSuffix(crictlUrl, ".sha256")),
          new Artifact.Install.Tarball("", Layout.BIN, List.of("crictl"))));
      URI coredns = URI.create(
          DownloadArtifact.LOCALDNS.url(downloads.localDns(), localDns, arch, LOCALDNS_BINARY));
      artifacts.add(new Artifact(
          LOCALDNS_BINARY,
          coredns,
          single(
              DownloadArtifact.LOCALDNS,
              localDns,
              coredns,
              BesideTheArtifact.withSuffix(coredns, ".sha256")),
          new Artifact.Install.Tarball("", Layout.BIN, List.of(LOCALDNS_BINARY))));
      return artifacts;
    }

    private URI uri(DownloadArtifact artifact, String version) {
      return URI.create(artifact.url(downloads.of(artifact), version, host.arch(), ""));
    }

    /** The checksum document's own URL the configuration names ({@code SHA256URL}), if any. */
    private Optional<URI> checksumUrl(DownloadArtifact artifact, String version, String binary) {
      return artifact
          .checksumUrl(downloads.of(artifact), version, host.arch(), binary)
          .map(URI::create);
    }

    /**
     * The checksum of a single-file artifact, whose checksum document names it by its file name:
     * at the configured URL, else at {@code beside}.
     */
    private Artifact.Checksum single(
        DownloadArtifact artifact, String version, URI url, URI beside) {
      URI document = checksumUrl(artifact, version, "").orElse(beside);
      return checksum(artifact, AgentConfig.Download.SINGLE_FILE, url, document, fileName(url));
    }

    /** A pinned digest wins; else the published document, which the configuration may allow to be missing. */
    private Artifact.Checksum checksum(
        DownloadArtifact artifact, String pinKey, URI url, URI document, String entry) {
      AgentConfig.Download d = downloads.of(artifact);
      return d.pinned(pinKey)
          .<Artifact.Checksum>map(Artifact.Checksum.Pinned::new)
          .orElseGet(() -> new Artifact.Checksum.Published(
              document, entry, d.allowUnverified(), advice(artifact, pinKey, url)));
    }

    /**
     * What the refusal of an artifact whose checksum cannot be had advises. An artifact URL with a
     * query is likely signed, and a signature covers its own path only: unless the configuration
     * names the checksum's own URL, the advice names the key that does.
     */
    private String advice(DownloadArtifact artifact, String pinKey, URI url) {
      String entry = "Downloads." + artifact.jsonName();
      if (url.getRawQuery() == null || !downloads.of(artifact).sha256Url().isEmpty()) {
        return Artifact.Checksum.Published.ADVICE;
      }
      String pin = pinKey.equals(AgentConfig.Download.SINGLE_FILE)
          ? entry + ".SHA256"
          : entry + ".SHA256." + pinKey;
      return "a signed URL's signature rarely covers the checksum's URL derived from it: set the"
          + " checksum's own URL (" + entry + ".SHA256URL), pin its digest (" + pin
          + ") or allow it unverified (" + entry + ".AllowUnverified)";
    }

    private static String fileName(URI url) {
      String path = url.getPath() == null ? "" : url.getPath();
      return path.substring(path.lastIndexOf('/') + 1);
    }

    private NodeStart nodeStart() {
      boolean gpu = !host.gpuDevices().isEmpty();
      AgentConfig.LocalDns dns = config.localDns();
      ContainerdSpec containerdSpec = new ContainerdSpec(
          SANDBOX_IMAGE,
          bin("containerd"),
          bin("runc"),
          CNI_BIN_DIR,
          CNI_CONF_DIR,
          CONTAINERD_METRICS_ADDRESS,
          gpu);
      KubeletSpec kubelet = new KubeletSpec(
          bin("kubelet"),
          config.kubelet().auth().kubeletAuth(),
          config.kubelet().apiServer(),
          Base64.getDecoder()
              .decode(config.cluster().caCertBase64().replace("\r", "").replace("\n", "")),
          dns.bindAddress(),
          config.kubelet().labels(),
          config.kubelet().registerWithTaints(),
          host.kubeletResolvConf().toString());
      List<String> upstreams = host.upstreamNameservers().stream()
          .filter(ns -> !ns.equals(dns.bindAddress()))
          .toList();
      LocalDnsSpec localDnsSpec = new LocalDnsSpec(
          bin(LOCALDNS_BINARY),
          dns.interfaceName(),
          dns.bindAddress(),
          LOCALDNS_PORT,
          dns.clusterDomain(),
          config.cluster().clusterDns(),
          upstreams);
      return new NodeStart(containerdSpec, kubelet, localDnsSpec, gpu);
    }

    private String bin(String name) {
      return layout.currentBin().resolve(name).toString();
    }
  }
}
