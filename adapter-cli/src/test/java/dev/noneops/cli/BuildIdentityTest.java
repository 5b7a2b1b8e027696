package dev.noneops.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The identity the CLI and the daemon compare before one answers for the other carries the
 * instant the build was made, so two builds of one snapshot version never answer for each other.
 */
class BuildIdentityTest {
  @Test
  void theIdentityIsTheVersionAndTheInstantTheBuildStampedIntoItsClasses() {
    assertThat(BuildVersionProvider.buildIdentity())
        .startsWith(BuildVersionProvider.buildVersion() + "+")
        .matches(".*\\+[0-9]{8}T[0-9]{6}\\.[0-9]{3}Z");
  }
}
