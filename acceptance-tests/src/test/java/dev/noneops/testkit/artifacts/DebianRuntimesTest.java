package dev.noneops.testkit.artifacts;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Debian builds get semantic version names a node configuration accepts. */
class DebianRuntimesTest {

  @Test
  void aSecurityUpdateBecomesAPreRelease() {
    assertThat(DebianRuntimes.versionName("1.6.20~ds1-1+deb12u3")).isEqualTo("1.6.20-deb12u3");
    assertThat(DebianRuntimes.versionName("1.1.5+ds1-1+deb12u1")).isEqualTo("1.1.5-deb12u1");
  }

  @Test
  void theUpstreamVersionLosesEpochAndDebianParts() {
    assertThat(DebianRuntimes.upstream("1:2.0.4~rc1-2")).isEqualTo("2.0.4");
    assertThat(DebianRuntimes.upstream("1.6.20~ds1-1+deb12u3")).isEqualTo("1.6.20");
    assertThat(DebianRuntimes.versionName("1.6.20-1")).isEqualTo("1.6.20");
  }

  @Test
  void theUpgradePairHasTwoDistinctVersionNames() {
    DebianRuntimes.ContainerdPair pair = DebianRuntimes.containerd();

    assertThat(pair.older().version()).isNotEqualTo(pair.newer().version());
    assertThat(pair.older().version()).matches("[0-9]+\\.[0-9]+\\.[0-9]+(-[0-9A-Za-z.]+)?");
    assertThat(pair.newer().version()).matches("[0-9]+\\.[0-9]+\\.[0-9]+(-[0-9A-Za-z.]+)?");
  }
}
