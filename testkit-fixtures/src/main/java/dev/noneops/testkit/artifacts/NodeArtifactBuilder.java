package dev.noneops.testkit.artifacts;

import dev.noneops.core.config.DownloadArtifact;
import dev.noneops.testkit.standins.StandInScripts;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;

/**
 * Publishes a complete {@link ArtifactSet} into an {@link ArtifactRepository} in the upstream
 * shapes: kubelet, kubectl and kube-proxy as single binaries; containerd as
 * {@code containerd-<v>-linux-<arch>.tar.gz} with {@code bin/containerd},
 * {@code bin/containerd-shim-runc-v2} and {@code bin/ctr}; runc as {@code runc.<arch>}; the CNI
 * plugins, crictl and CoreDNS as tarballs. containerd and runc are Debian's real binaries (see
 * {@link DebianPackages}) unless the set asks for stand-ins; the rest are {@link StandInScripts}.
 * A containerd tarball already published is not rebuilt.
 */
public final class NodeArtifactBuilder {
  private final ArtifactRepository repository;
  private final DebianPackages debian;
  private final StandInScripts scripts;

  public NodeArtifactBuilder(
      ArtifactRepository repository, DebianPackages debian, StandInScripts scripts) {
    this.repository = Objects.requireNonNull(repository, "repository");
    this.debian = Objects.requireNonNull(debian, "debian");
    this.scripts = Objects.requireNonNull(scripts, "scripts");
  }

  /** Publishes every artifact of {@code set}. */
  public void publish(ArtifactSet set) throws IOException, InterruptedException {
    String arch = set.arch();
    String k8s = set.kubernetesVersion();
    repository.put(
        DownloadArtifact.KUBERNETES,
        k8s,
        arch,
        "kubelet",
        utf8(scripts.kubelet(k8s, set.kubeletNeverHealthy())));
    repository.put(
        DownloadArtifact.KUBERNETES, k8s, arch, "kubectl", utf8(scripts.tool("kubectl", k8s)));
    repository.put(
        DownloadArtifact.KUBERNETES,
        k8s,
        arch,
        "kube-proxy",
        utf8(scripts.tool("kube-proxy", k8s)));

    publishContainerd(set.containerd(), arch);
    publishRunc(set.runc(), arch);

    Map<String, byte[]> plugins = new LinkedHashMap<>();
    for (String plugin : StandInScripts.CNI_PLUGINS) {
      plugins.put(plugin, utf8(scripts.tool(plugin, set.cniVersion())));
    }
    repository.put(DownloadArtifact.CNI, set.cniVersion(), arch, "", tarGz(plugins));
    repository.put(
        DownloadArtifact.CRICTL,
        set.crictlVersion(),
        arch,
        "",
        tarGz(Map.of("crictl", utf8(scripts.tool("crictl", set.crictlVersion())))));
    repository.put(
        DownloadArtifact.LOCALDNS,
        set.localDnsVersion(),
        arch,
        "",
        tarGz(Map.of("coredns", utf8(scripts.coredns(set.localDnsVersion())))));
  }

  /**
   * Replaces the CNI artifact at {@code cniVersion} with Debian's real plugins (package {@code
   * containernetworking-plugins} at apt's candidate version: {@link StandInScripts#CNI_PLUGINS}
   * from {@code usr/lib/cni}), for nodes whose pods are networked by them.
   */
  public void publishDebianCniPlugins(String cniVersion, String arch)
      throws IOException, InterruptedException {
    Path lib = debian.extracted("containernetworking-plugins", "").resolve("usr/lib/cni");
    Map<String, Path> files = new LinkedHashMap<>();
    for (String plugin : StandInScripts.CNI_PLUGINS) {
      files.put(plugin, lib.resolve(plugin));
    }
    Path tarball = Files.createTempFile(repository.root(), ".cni-", ".tar.gz");
    try {
      try (OutputStream out = Files.newOutputStream(tarball)) {
        writeTarGz(out, files);
      }
      repository.put(DownloadArtifact.CNI, cniVersion, arch, "", tarball);
    } finally {
      Files.deleteIfExists(tarball);
    }
  }

  private void publishContainerd(ArtifactSet.Runtime containerd, String arch)
      throws IOException, InterruptedException {
    if (!containerd.real()) {
      Map<String, byte[]> files = new LinkedHashMap<>();
      for (String bin : new String[] {"containerd", "containerd-shim-runc-v2", "ctr"}) {
        files.put("bin/" + bin, utf8(scripts.tool(bin, containerd.version())));
      }
      repository.put(DownloadArtifact.CONTAINERD, containerd.version(), arch, "", tarGz(files));
      return;
    }
    if (repository.has(DownloadArtifact.CONTAINERD, containerd.version(), arch, "")) {
      return;
    }
    Path usrBin = debian.extracted("containerd", containerd.debianVersion()).resolve("usr/bin");
    Map<String, Path> files = new LinkedHashMap<>();
    for (String bin : new String[] {"containerd", "containerd-shim-runc-v2", "ctr"}) {
      files.put("bin/" + bin, usrBin.resolve(bin));
    }
    Path tarball = Files.createTempFile(repository.root(), ".containerd-", ".tar.gz");
    try {
      try (OutputStream out = Files.newOutputStream(tarball)) {
        writeTarGz(out, files);
      }
      repository.put(DownloadArtifact.CONTAINERD, containerd.version(), arch, "", tarball);
    } finally {
      Files.deleteIfExists(tarball);
    }
  }

  private void publishRunc(ArtifactSet.Runtime runc, String arch)
      throws IOException, InterruptedException {
    if (!runc.real()) {
      repository.put(
          DownloadArtifact.RUNC,
          runc.version(),
          arch,
          "",
          utf8(scripts.tool("runc", runc.version())));
      return;
    }
    if (repository.has(DownloadArtifact.RUNC, runc.version(), arch, "")) {
      return;
    }
    repository.put(
        DownloadArtifact.RUNC,
        runc.version(),
        arch,
        "",
        debian.extracted("runc", runc.debianVersion()).resolve("usr/sbin/runc"));
  }

  /** A gzip'ed tarball of executable regular files (mode 0755), in the given order. */
  public static byte[] tarGz(Map<String, byte[]> files) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (TarArchiveOutputStream tar = new TarArchiveOutputStream(gzip(bytes))) {
      for (Map.Entry<String, byte[]> f : files.entrySet()) {
        TarArchiveEntry entry = new TarArchiveEntry(f.getKey());
        entry.setMode(0100755);
        entry.setSize(f.getValue().length);
        tar.putArchiveEntry(entry);
        tar.write(f.getValue());
        tar.closeArchiveEntry();
      }
    }
    return bytes.toByteArray();
  }

  private static void writeTarGz(OutputStream out, Map<String, Path> files) throws IOException {
    try (TarArchiveOutputStream tar = new TarArchiveOutputStream(gzip(out))) {
      tar.setBigNumberMode(TarArchiveOutputStream.BIGNUMBER_POSIX);
      for (Map.Entry<String, Path> f : files.entrySet()) {
        TarArchiveEntry entry = new TarArchiveEntry(f.getKey());
        entry.setMode(0100755);
        entry.setSize(Files.size(f.getValue()));
        tar.putArchiveEntry(entry);
        try (InputStream in = Files.newInputStream(f.getValue())) {
          in.transferTo(tar);
        }
        tar.closeArchiveEntry();
      }
    }
  }

  private static OutputStream gzip(OutputStream out) throws IOException {
    return new GZIPOutputStream(out, 1 << 16) {
      {
        def.setLevel(Deflater.BEST_SPEED);
      }
    };
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
