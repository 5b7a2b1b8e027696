package dev.noneops.core.config;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SemanticVersionTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "1.31.2",
        "0.0.0",
        "1.32.0-rc.1",
        "1.0.0-rc93",
        "2.0.4+azure",
        "1.2.3-alpha.1+build.5"
      })
  void acceptsSemanticVersions(String v) {
    assertThat(SemanticVersion.isValid(v)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "v1.2.3",
        "1.2",
        "1.2.3.4",
        "01.2.3",
        "1.2.3-",
        "1.2.3+",
        "1.2.3-a..b",
        "../x",
        "1.2.3/..",
        " 1.2.3",
        "1.2.3\u0000",
        "1234567890.0.0"
      })
  void rejectsEverythingElse(String v) {
    assertThat(SemanticVersion.isValid(v)).isFalse();
  }

  @Test
  void givesTheMinorLineCrictlFollows() {
    assertThat(SemanticVersion.parse("1.31.7-rc.1").orElseThrow().minorLine()).isEqualTo("1.31.0");
  }
}
