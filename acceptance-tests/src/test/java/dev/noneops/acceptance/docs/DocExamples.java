package dev.noneops.acceptance.docs;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.StringWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * The {@code ```java} blocks of a Markdown page, compiled and run as the page states them.
 *
 * <p>The convention the pages state: a block is a whole compilation unit when it declares a
 * top-level class, record, interface or enum (no package), otherwise a snippet. A block may start
 * with {@code import} lines. The blocks of one page are compiled together, against this JVM's class
 * path; the only thing added is a snippet's wrapper: its lines after the imports become the body of
 * {@code public static void run() throws Exception} in a class of its own. Every snippet is run, and
 * every compilation unit that declares {@code public static void run()}; each must print a line to
 * {@code System.out}. A block that imports or names a {@code .internal.} package is refused.
 */
final class DocExamples {
  private static final Pattern FENCE = Pattern.compile("^```(\\S*)\\s*$");
  private static final Pattern IMPORT =
      Pattern.compile("^import\\s+(static\\s+)?([\\w.]+(\\.\\*)?)\\s*;.*$");
  private static final Pattern TYPE = Pattern.compile(
      "^(?:public\\s+)?(?:final\\s+|abstract\\s+|sealed\\s+)*(?:class|record|interface|enum)\\s+(\\w+)",
      Pattern.MULTILINE);
  private static final Pattern INTERNAL = Pattern.compile("\\b[\\w.]*\\.internal(\\.|\\b)");

  private DocExamples() {}

  /** A {@code ```java} block: where it is and its lines. */
  record Block(String page, int firstLine, List<String> lines) {
    String where() {
      return page + ":" + firstLine;
    }
  }

  /** A compiled block's outcome: what it printed to {@code System.out}. */
  record Ran(Block block, String className, String out) {}

  /** The java blocks of {@code markdown}, all of them or (with markers) those between the markers. */
  static List<Block> javaBlocks(
      String page, String markdown, String startMarker, String endMarker) {
    List<String> lines = markdown.lines().toList();
    List<Block> blocks = new ArrayList<>();
    boolean inside = startMarker == null;
    boolean sawStart = startMarker == null;
    boolean sawEnd = endMarker == null;
    String fence = null;
    int first = 0;
    List<String> body = null;
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (fence == null && startMarker != null && line.trim().equals(startMarker)) {
        inside = true;
        sawStart = true;
        continue;
      }
      if (fence == null && endMarker != null && line.trim().equals(endMarker)) {
        inside = false;
        sawEnd = true;
        continue;
      }
      Matcher m = FENCE.matcher(line);
      if (fence == null && m.matches()) {
        fence = m.group(1).toLowerCase(Locale.ROOT);
        first = i + 2;
        body = new ArrayList<>();
      } else if (fence != null && line.trim().equals("```")) {
        if (inside && fence.equals("java")) {
          blocks.add(new Block(page, first, List.copyOf(body)));
        }
        fence = null;
      } else if (fence != null) {
        body.add(line);
      }
    }
    if (!sawStart || !sawEnd) {
      throw new AssertionError(
          page + ": the markers " + startMarker + " and " + endMarker + " are not both there");
    }
    if (blocks.isEmpty()) {
      throw new AssertionError(
          page + ": no ```java block" + (startMarker == null ? "" : " between the markers"));
    }
    return blocks;
  }

  /** Each place a block imports or names a {@code .internal.} package, as {@code page:line: text}. */
  static List<String> internalUses(List<Block> blocks) {
    List<String> uses = new ArrayList<>();
    for (Block b : blocks) {
      for (int i = 0; i < b.lines().size(); i++) {
        String line = b.lines().get(i);
        String code = line.replaceFirst("//.*$", "");
        if (INTERNAL.matcher(code).find()) {
          uses.add(b.page() + ":" + (b.firstLine() + i) + ": " + line.trim());
        }
      }
    }
    return uses;
  }

  /**
   * Compiles the blocks of one page together and runs them; throws an {@link AssertionError}
   * with the compiler's diagnostics (at the page's lines) when they do not compile, and with the
   * failure when one throws or prints nothing.
   */
  static List<Ran> compileAndRun(List<Block> blocks, Path workDir) throws Exception {
    List<String> internal = internalUses(blocks);
    if (!internal.isEmpty()) {
      throw new AssertionError(
          "an example uses a .internal. package, which no embedding caller may:\n"
              + String.join("\n", internal));
    }
    List<Source> sources = new ArrayList<>();
    for (int n = 0; n < blocks.size(); n++) {
      sources.add(Source.of(blocks.get(n), n + 1));
    }
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    if (javac == null) {
      throw new AssertionError(
          "this JVM has no Java compiler (a JRE, not a JDK): " + System.getProperty("java.home"));
    }
    Path classes = Files.createDirectories(workDir.resolve("classes"));
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    StringWriter javacOut = new StringWriter();
    boolean compiled;
    try (StandardJavaFileManager files =
        javac.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8)) {
      compiled = javac
          .getTask(
              javacOut,
              files,
              diagnostics,
              List.of(
                  "-classpath",
                  System.getProperty("java.class.path"),
                  "-d",
                  classes.toString(),
                  "-proc:none",
                  "-encoding",
                  "UTF-8"),
              null,
              sources)
          .call();
    }
    if (!compiled) {
      StringBuilder report = new StringBuilder("the examples do not compile:\n");
      for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
        if (d.getKind() != Diagnostic.Kind.ERROR) {
          continue;
        }
        Source s = d.getSource() instanceof Source src ? src : null;
        String at = s == null ? "?" : s.docLine(d.getLineNumber());
        report.append(at).append(": ").append(d.getMessage(Locale.ROOT)).append('\n');
        if (s != null) {
          report.append("    ").append(s.line(d.getLineNumber()).trim()).append('\n');
        }
      }
      report.append(javacOut);
      throw new AssertionError(report.toString());
    }
    List<Ran> ran = new ArrayList<>();
    try (URLClassLoader loader = new URLClassLoader(
        new URL[] {classes.toUri().toURL()}, DocExamples.class.getClassLoader())) {
      for (Source s : sources) {
        Method run = runMethod(loader.loadClass(s.className));
        if (run == null) {
          if (s.snippet) {
            throw new AssertionError(s.block.where() + ": the snippet's wrapper has no run()");
          }
          continue;
        }
        String out = printed(s, run);
        if (out.isBlank()) {
          throw new AssertionError(s.block.where() + ": the example printed nothing to System.out");
        }
        ran.add(new Ran(s.block, s.className, out));
      }
    }
    return ran;
  }

  private static Method runMethod(Class<?> type) {
    try {
      Method m = type.getMethod("run");
      return Modifier.isStatic(m.getModifiers()) ? m : null;
    } catch (NoSuchMethodException e) {
      return null;
    }
  }

  /** Runs {@code run}, returning what it printed to {@code System.out} (which still sees it). */
  private static String printed(Source s, Method run) throws Exception {
    PrintStream original = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    PrintStream tee = new PrintStream(new Tee(original, captured), true, StandardCharsets.UTF_8);
    System.setOut(tee);
    try {
      run.invoke(null);
    } catch (InvocationTargetException e) {
      throw new AssertionError(
          s.block.where() + ": the example threw " + e.getCause(), e.getCause());
    } finally {
      tee.flush();
      System.setOut(original);
    }
    return captured.toString(StandardCharsets.UTF_8);
  }

  /** One block as javac reads it, with the map from its lines to the page's. */
  private static final class Source extends SimpleJavaFileObject {
    final Block block;
    final String className;
    final boolean snippet;
    /** The page line of each source line (1-based; 0 for a wrapper's own lines). */
    private final List<Integer> docLines;

    private final List<String> lines;

    private Source(
        Block block,
        String className,
        boolean snippet,
        List<String> lines,
        List<Integer> docLines) {
      super(URI.create("string:///" + className + Kind.SOURCE.extension), Kind.SOURCE);
      this.block = block;
      this.className = className;
      this.snippet = snippet;
      this.lines = lines;
      this.docLines = docLines;
    }

    static Source of(Block block, int n) {
      String text = String.join("\n", block.lines());
      Matcher type = TYPE.matcher(text);
      List<String> lines = new ArrayList<>();
      List<Integer> docLines = new ArrayList<>();
      if (type.find()) {
        for (int i = 0; i < block.lines().size(); i++) {
          lines.add(block.lines().get(i));
          docLines.add(block.firstLine() + i);
        }
        return new Source(block, type.group(1), false, lines, docLines);
      }
      String name = pageName(block.page()) + "Example" + n;
      int i = 0;
      for (; i < block.lines().size(); i++) {
        String line = block.lines().get(i);
        if (!line.isBlank() && !IMPORT.matcher(line.trim()).matches()) {
          break;
        }
        lines.add(line);
        docLines.add(block.firstLine() + i);
      }
      lines.add("public final class " + name + " {");
      docLines.add(0);
      lines.add("  public static void run() throws Exception {");
      docLines.add(0);
      for (; i < block.lines().size(); i++) {
        lines.add(block.lines().get(i));
        docLines.add(block.firstLine() + i);
      }
      lines.add("  }");
      docLines.add(0);
      lines.add("}");
      docLines.add(0);
      return new Source(block, name, true, lines, docLines);
    }

    private static String pageName(String page) {
      String file = Path.of(page).getFileName().toString().replaceFirst("\\.md$", "");
      StringBuilder s = new StringBuilder();
      for (String part : file.split("[^A-Za-z0-9]+")) {
        if (!part.isEmpty()) {
          s.append(Character.toUpperCase(part.charAt(0)))
              .append(part.substring(1).toLowerCase(Locale.ROOT));
        }
      }
      return s.toString();
    }

    String docLine(long sourceLine) {
      int i = (int) sourceLine - 1;
      int line = i >= 0 && i < docLines.size() ? docLines.get(i) : 0;
      return block.page() + ":"
          + (line == 0 ? block.firstLine() + " (the wrapper of the block)" : line);
    }

    String line(long sourceLine) {
      int i = (int) sourceLine - 1;
      return i >= 0 && i < lines.size() ? lines.get(i) : "";
    }

    @Override
    public CharSequence getCharContent(boolean ignoreEncodingErrors) {
      return String.join("\n", lines) + "\n";
    }
  }

  /** Writes to two streams. */
  private static final class Tee extends OutputStream {
    private final OutputStream a;
    private final OutputStream b;

    Tee(OutputStream a, OutputStream b) {
      this.a = a;
      this.b = b;
    }

    @Override
    public void write(int c) throws IOException {
      a.write(c);
      b.write(c);
    }

    @Override
    public void write(byte[] bytes, int off, int len) throws IOException {
      a.write(bytes, off, len);
      b.write(bytes, off, len);
    }

    @Override
    public void flush() throws IOException {
      a.flush();
      b.flush();
    }
  }
}
