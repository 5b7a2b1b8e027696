package dev.noneops.testkit.artifacts;

import dev.noneops.core.goalstate.Artifact;
import dev.noneops.core.goalstate.MachineGoalState;
import dev.noneops.testkit.SimulatedHost;
import dev.noneops.testkit.download.SimArtifactRepository;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Publishes every artifact a goal state downloads into a {@link SimulatedHost}'s artifact
 * repository, in the upstream shapes (single binaries, tarballs with the entries core extracts)
 * and with the checksum documents it checks, in the upstream formats: the simulated counterpart of
 * {@link NodeArtifactBuilder} and {@link ArtifactServer}. The "binaries" are short scripts naming
 * themselves and the version, so two versions differ byte for byte.
 */
public final class SimulatedArtifacts {
  private SimulatedArtifacts() {}

  public static void publish(SimulatedHost host, MachineGoalState goal) {
    SimArtifactRepository repo = host.artifacts();
    String tag = goal.rootFs().versionName();
    for (Artifact a : goal.rootFs().artifacts()) {
      byte[] bytes = content(a, tag);
      repo.publish(a.url(), bytes);
      if (a.checksum() instanceof Artifact.Checksum.Published p) {
        repo.publish(p.url(), checksumDocument(repo, p, bytes));
      }
    }
  }

  /**
   * The checksum document {@code p} names, holding the digest of {@code bytes} in the upstream
   * form: a bare digest, or {@code sha256sum} lines where the other files a shared document
   * (runc's) already lists are kept.
   */
  public static byte[] checksumDocument(
      SimArtifactRepository repo, Artifact.Checksum.Published p, byte[] bytes) {
    String hex = SimArtifactRepository.sha256Hex(bytes);
    if (p.entry().isEmpty()) {
      return (hex + "\n").getBytes(StandardCharsets.UTF_8);
    }
    String existing =
        repo.published(p.url()).map(b -> new String(b, StandardCharsets.UTF_8)).orElse("");
    return UpstreamChecksums.merged(existing, p.entry(), hex).getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] content(Artifact a, String tag) {
    if (a.install() instanceof Artifact.Install.Binary b) {
      return script(b.fileName(), tag);
    }
    Artifact.Install.Tarball t = (Artifact.Install.Tarball) a.install();
    List<String> names = switch (a.name()) {
      case "containerd" -> List.of("containerd", "containerd-shim-runc-v2", "ctr");
      case "cni-plugins" -> List.of("bridge", "host-local", "loopback", "portmap");
      default -> t.only().isEmpty() ? List.of(a.name()) : t.only();
    };
    TarGz.Builder tar = TarGz.builder();
    for (String name : names) {
      tar.file(t.entryPrefix() + name, script(name, tag), 0755);
    }
    if (a.name().equals("cni-plugins")) {
      // The release tarball ships its licence and readme beside the plugins.
      tar.file("LICENSE", "license text\n", 0644).file("README.md", "readme\n", 0644);
    }
    return tar.build();
  }

  private static byte[] script(String name, String tag) {
    return ("#!/bin/sh\n# " + name + " " + tag + ": a simulated binary\n")
        .getBytes(StandardCharsets.UTF_8);
  }
}
