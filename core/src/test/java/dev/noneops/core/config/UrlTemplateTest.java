package dev.noneops.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class UrlTemplateTest {
  private static final List<String> ARGS = List.of("1.31.2", "amd64", "kubelet");

  @Test
  void fillsPlaceholdersInOrder() {
    assertThat(UrlTemplate.render("https://m/%s/%s/%s", ARGS))
        .isEqualTo("https://m/1.31.2/amd64/kubelet");
  }

  @Test
  void fillsExplicitlyIndexedPlaceholdersAndContinuesAfterThem() {
    assertThat(UrlTemplate.render("https://m/%[3]s-%[1]s/%[2]s", ARGS))
        .isEqualTo("https://m/kubelet-1.31.2/amd64");
    assertThat(UrlTemplate.render("https://m/%[2]s/%s", ARGS)).isEqualTo("https://m/amd64/kubelet");
  }

  @Test
  void writesALiteralPercentForDoublePercent() {
    assertThat(UrlTemplate.render("https://m/a%%20b/%s", ARGS)).isEqualTo("https://m/a%20b/1.31.2");
  }

  @Test
  void ignoresArgumentsATemplateDoesNotUse() {
    assertThat(UrlTemplate.render("https://m/pinned.tgz", ARGS)).isEqualTo("https://m/pinned.tgz");
  }

  @Test
  void rejectsOtherVerbsALonePercentAndMissingArguments() {
    assertThat(UrlTemplate.problem("https://m/%v", 3))
        .contains("has an unsupported placeholder '%v'; only %s, %[n]s and %% are allowed");
    assertThat(UrlTemplate.problem("https://m/%[0]s", 3))
        .contains(
            "has an unsupported placeholder at position 11; only %s, %[n]s and %% are allowed");
    assertThat(UrlTemplate.problem("https://m/%[1]d", 3))
        .contains(
            "has an unsupported placeholder at position 11; only %s, %[n]s and %% are allowed");
    assertThat(UrlTemplate.problem("https://m/100%", 3))
        .contains("ends with a lone '%'; write %% for a literal percent sign");
    assertThat(UrlTemplate.problem("https://m/%[4]s", 3))
        .contains("%[4]s refers to argument 4 but only 3 are available");
    assertThat(UrlTemplate.problem("https://m/%[3]s/%s", 3))
        .contains("%s refers to argument 4 but only 3 are available");
    assertThatThrownBy(() -> UrlTemplate.render("%s%s", List.of("x")))
        .hasMessage("%s refers to argument 2 but only 1 is available");
  }

  @Test
  void acceptsAUsableTemplate() {
    assertThat(UrlTemplate.problem("https://m/%s/%s/%s", 3)).isEmpty();
  }
}
