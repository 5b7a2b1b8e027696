package dev.noneops.core.config;

import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A semantic version ({@code MAJOR.MINOR.PATCH[-prerelease][+build]}, semver.org 2.0.0) without a
 * leading {@code v}. Component versions end up in download URLs and the Kubernetes version in a
 * directory name, so only this strict syntax is accepted: it admits no {@code /}, no whitespace and
 * no {@code ..}.
 *
 * @param text the version exactly as written
 * @param major the major number
 * @param minor the minor number
 * @param patch the patch number
 */
record SemanticVersion(String text, long major, long minor, long patch) {
  private static final Pattern SEMVER =
      Pattern.compile("(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)"
          + "(?:-((?:0|[1-9][0-9]*|[0-9]*[a-zA-Z-][0-9a-zA-Z-]*)(?:\\.(?:0|[1-9][0-9]*|[0-9]*[a-zA-Z-][0-9a-zA-Z-]*))*))?"
          + "(?:\\+([0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*))?");

  /** Longest number accepted in one of the three numeric fields. */
  private static final int MAX_NUMBER_DIGITS = 9;

  public SemanticVersion {
    Objects.requireNonNull(text, "text");
  }

  /** The version {@code text} denotes, or empty when it is not a semantic version. */
  public static Optional<SemanticVersion> parse(String text) {
    if (text == null) {
      return Optional.empty();
    }
    Matcher m = SEMVER.matcher(text);
    if (!m.matches()) {
      return Optional.empty();
    }
    for (int group = 1; group <= 3; group++) {
      if (m.group(group).length() > MAX_NUMBER_DIGITS) {
        return Optional.empty();
      }
    }
    return Optional.of(new SemanticVersion(
        text, Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), Long.parseLong(m.group(3))));
  }

  /** Whether {@code text} is a semantic version. */
  public static boolean isValid(String text) {
    return parse(text).isPresent();
  }

  /** {@code <major>.<minor>.0}: how crictl's version follows the Kubernetes version. */
  public String minorLine() {
    return major + "." + minor + ".0";
  }

  @Override
  public String toString() {
    return text;
  }
}
