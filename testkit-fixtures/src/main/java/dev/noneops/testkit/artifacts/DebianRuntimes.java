package dev.noneops.testkit.artifacts;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The containerd and runc builds system tests and the demo take from Debian, chosen from what the
 * package lists offer today rather than pinned: a security update drops the build it replaces
 * from the archive, so a pinned Debian version stops being downloadable.
 *
 * <p>The upgrade story needs two containerd builds. When the archive has two or more, the two
 * newest are used; when it has one, that build is installed under two version names, which
 * still gives two version directories to flip between.
 */
public final class DebianRuntimes {
  private static final long TIMEOUT_SECONDS = 60;

  /** Two containerd builds: the one a node starts on, and the one it upgrades to. */
  public record ContainerdPair(ArtifactSet.Runtime older, ArtifactSet.Runtime newer) {}

  private DebianRuntimes() {}

  /** The two newest containerd builds apt can download (the same build twice when it has one). */
  public static ContainerdPair containerd() {
    List<String> versions = available("containerd");
    if (versions.size() >= 2) {
      String newer = versions.get(0);
      String older = versions.get(1);
      String newerName = versionName(newer);
      String olderName = versionName(older);
      if (olderName.equals(newerName)) {
        olderName = olderName + ".0";
      }
      return new ContainerdPair(
          ArtifactSet.Runtime.fromDebian(olderName, older),
          ArtifactSet.Runtime.fromDebian(newerName, newer));
    }
    String only = versions.isEmpty() ? "" : versions.get(0);
    String name = versions.isEmpty() ? "1.6.20" : versionName(only);
    return new ContainerdPair(
        ArtifactSet.Runtime.fromDebian(withBuild(name, "1"), only),
        ArtifactSet.Runtime.fromDebian(withBuild(name, "2"), only));
  }

  /** runc at apt's candidate version. */
  public static ArtifactSet.Runtime runc() {
    List<String> versions = available("runc");
    return versions.isEmpty()
        ? ArtifactSet.Runtime.fromDebian("1.1.5", "")
        : ArtifactSet.Runtime.fromDebian(upstream(versions.get(0)), versions.get(0));
  }

  /**
   * The semantic version a node configuration names a Debian build by: the upstream version,
   * plus the Debian revision's update suffix as a pre-release ({@code 1.6.20~ds1-1+deb12u3} →
   * {@code 1.6.20-deb12u3}).
   */
  static String versionName(String debianVersion) {
    String upstream = upstream(debianVersion);
    int plus = debianVersion.lastIndexOf('+');
    String suffix =
        plus < 0 ? "" : debianVersion.substring(plus + 1).replaceAll("[^0-9A-Za-z]", "");
    return suffix.isEmpty() ? upstream : upstream + "-" + suffix;
  }

  /** {@code 1.6.20~ds1-1+deb12u3} → {@code 1.6.20}; an epoch is dropped. */
  static String upstream(String debianVersion) {
    String v = debianVersion.contains(":")
        ? debianVersion.substring(debianVersion.indexOf(':') + 1)
        : debianVersion;
    int end = v.length();
    for (char stop : new char[] {'~', '-', '+'}) {
      int i = v.indexOf(stop);
      if (i >= 0 && i < end) {
        end = i;
      }
    }
    return v.substring(0, end);
  }

  private static String withBuild(String name, String build) {
    return name + (name.contains("-") ? "." : "-build.") + build;
  }

  /** The versions {@code apt-cache madison} lists for {@code name}, newest first, without repeats. */
  static List<String> available(String name) {
    List<String> versions = new ArrayList<>();
    try {
      Process p = new ProcessBuilder("apt-cache", "madison", name)
          .redirectErrorStream(true)
          .start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS) || p.exitValue() != 0) {
        p.destroyForcibly();
        return versions;
      }
      for (String line : out.split("\n")) {
        String[] cols = line.split("\\|");
        if (cols.length >= 3 && cols[0].trim().equals(name)) {
          String v = cols[1].trim();
          if (!versions.contains(v)) {
            versions.add(v);
          }
        }
      }
    } catch (IOException e) {
      return versions;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return versions;
  }
}
