package dev.noneops.acceptance.docs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The quick start of {@code docs/guides/install.md} as its text gives it: each shell block marked
 * {@code <!-- quick-start: NAME -->}, by name, in the page's order, so tests run what an operator
 * reads.
 */
public final class QuickStartDoc {
  /** The page, from a module directory of the repository. */
  public static final Path PAGE = Path.of("..", "docs", "guides", "install.md");

  private static final Pattern BLOCK =
      Pattern.compile("<!-- quick-start: ([a-z-]+) -->\\n```sh\\n(.*?)```", Pattern.DOTALL);

  private final Map<String, String> blocks;

  private QuickStartDoc(Map<String, String> blocks) {
    this.blocks = blocks;
  }

  /** The blocks of {@link #PAGE}. */
  public static QuickStartDoc read() throws IOException {
    Matcher m = BLOCK.matcher(Files.readString(PAGE));
    Map<String, String> blocks = new LinkedHashMap<>();
    while (m.find()) {
      if (blocks.put(m.group(1), m.group(2)) != null) {
        throw new IllegalStateException("two quick-start blocks named " + m.group(1));
      }
    }
    return new QuickStartDoc(blocks);
  }

  /** The block {@code name}'s text, as printed. */
  public String block(String name) {
    String text = blocks.get(name);
    if (text == null) {
      throw new IllegalStateException(
          PAGE + " has no quick-start block '" + name + "', only " + blocks.keySet());
    }
    return text;
  }

  /** The block {@code name}'s commands, one a line. */
  public List<String> lines(String name) {
    return block(name).lines().filter(line -> !line.isBlank()).toList();
  }

  /** The names of the blocks, in the page's order. */
  public List<String> names() {
    return List.copyOf(blocks.keySet());
  }
}
