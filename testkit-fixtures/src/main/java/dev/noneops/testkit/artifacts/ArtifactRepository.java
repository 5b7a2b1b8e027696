package dev.noneops.testkit.artifacts;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.config.DownloadArtifact;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * A directory laid out exactly like the upstream download sites, one subdirectory per artifact
 * kind ({@code kubernetes/v1.31.2/bin/linux/amd64/kubelet}, {@code containerd/v2.0.4/containerd-2.0.4-linux-amd64.tar.gz},
 * ...), each file with the checksum document its project publishes beside it, in that project's
 * format ({@link UpstreamChecksums}: Kubernetes' bare {@code .sha256}, containerd's
 * {@code .sha256sum}, runc's one {@code runc.sha256sum} for every architecture, the others'
 * {@code .sha256} in {@code sha256sum} form). Paths come from core's own URL rules
 * ({@link DownloadArtifact}), so a configuration whose {@code Downloads.<Artifact>.BaseURL} points
 * at {@code <server>/<kind>} ({@link #downloads}) downloads from here.
 */
public final class ArtifactRepository {
  private final Path root;

  public ArtifactRepository(Path root) throws IOException {
    this.root = Objects.requireNonNull(root, "root").toAbsolutePath().normalize();
    Files.createDirectories(this.root);
  }

  public Path root() {
    return root;
  }

  /** The subdirectory (and URL path segment) of an artifact kind, e.g. {@code localdns}. */
  public static String kind(DownloadArtifact artifact) {
    return artifact.name().toLowerCase(Locale.ROOT);
  }

  /** Where {@code artifact} at {@code version} for {@code arch} lives below the root ({@code binary} for Kubernetes). */
  public Path path(DownloadArtifact artifact, String version, String arch, String binary) {
    String url =
        artifact.url(new AgentConfig.Download("/" + kind(artifact), "", ""), version, arch, binary);
    Path p = root.resolve(url.substring(1)).normalize();
    if (!p.startsWith(root)) {
      throw new IllegalArgumentException("artifact path escapes the repository: " + url);
    }
    return p;
  }

  /** Whether the artifact is present and its checksum document lists it. */
  public boolean has(DownloadArtifact artifact, String version, String arch, String binary)
      throws IOException {
    Path p = path(artifact, version, arch, binary);
    Path document = checksumDocument(artifact, p);
    return Files.isRegularFile(p)
        && Files.isRegularFile(document)
        && UpstreamChecksums.lists(
            artifact, Files.readString(document, StandardCharsets.UTF_8), fileName(p));
  }

  /** Publishes {@code content} (and its checksum document) as the artifact; returns its SHA-256 hex. */
  public String put(
      DownloadArtifact artifact, String version, String arch, String binary, byte[] content)
      throws IOException {
    try (InputStream in = new ByteArrayInputStream(content)) {
      return put(artifact, version, arch, binary, in);
    }
  }

  /** Publishes a file's content as the artifact; returns its SHA-256 hex. */
  public String put(
      DownloadArtifact artifact, String version, String arch, String binary, Path content)
      throws IOException {
    try (InputStream in = Files.newInputStream(content)) {
      return put(artifact, version, arch, binary, in);
    }
  }

  private String put(
      DownloadArtifact artifact, String version, String arch, String binary, InputStream content)
      throws IOException {
    Path target = path(artifact, version, arch, binary);
    Path dir = Objects.requireNonNull(target.getParent(), "an artifact path has a directory");
    Files.createDirectories(dir);
    Path tmp = Files.createTempFile(dir, ".upload-", ".tmp");
    MessageDigest sha;
    try {
      sha = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK has no SHA-256", e);
    }
    try (InputStream in = new DigestInputStream(content, sha);
        OutputStream out = Files.newOutputStream(tmp)) {
      in.transferTo(out);
    }
    String hex = HexFormat.of().formatHex(sha.digest());
    Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    Path document = checksumDocument(artifact, target);
    Optional<String> existing = Files.isRegularFile(document)
        ? Optional.of(Files.readString(document, StandardCharsets.UTF_8))
        : Optional.empty();
    Files.writeString(
        document,
        UpstreamChecksums.document(artifact, fileName(target), hex, existing),
        StandardCharsets.UTF_8);
    return hex;
  }

  /** Download overrides that fetch every artifact from {@code server} (only the base URLs set). */
  public static AgentConfig.Downloads downloads(URI server) {
    String base = server.toString().replaceAll("/+$", "");
    return new AgentConfig.Downloads(
        override(base, DownloadArtifact.KUBERNETES),
        override(base, DownloadArtifact.CONTAINERD),
        override(base, DownloadArtifact.RUNC),
        override(base, DownloadArtifact.CNI),
        override(base, DownloadArtifact.CRICTL),
        override(base, DownloadArtifact.LOCALDNS));
  }

  private static AgentConfig.Download override(String base, DownloadArtifact artifact) {
    return new AgentConfig.Download(base + "/" + kind(artifact), "", "");
  }

  private static String fileName(Path artifactPath) {
    return Objects.requireNonNull(artifactPath.getFileName(), "an artifact path names a file")
        .toString();
  }

  private static Path checksumDocument(DownloadArtifact artifact, Path file) {
    return file.resolveSibling(UpstreamChecksums.documentName(artifact, fileName(file)));
  }
}
