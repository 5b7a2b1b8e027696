package dev.noneops.benchmarks.e2e;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How a cost grows with the work: the total (median of its runs) at each size, the cost per unit,
 * and the marginal cost per unit between neighbouring sizes (which a fixed overhead does not
 * distort). The goal of every curve is linear, not quadratic: the per-unit cost at no size above
 * {@value #GOAL}× the smallest size's, and the marginal per-unit cost of the last step at most
 * {@value #GOAL}× the first step's (a fixed overhead makes the per-unit cost fall with the size,
 * which is no harm; a cost that grows faster than the work makes either rise).
 */
final class CostCurve {
  /** The largest spread of per-unit cost across the range that still counts as linear. */
  static final double GOAL = 1.5;

  private final String unit;
  private final String singular;
  private final String costUnit;
  private final List<Point> points = new ArrayList<>();

  /** One size and its runs. */
  private record Point(long size, Samples total) {
    double perUnit() {
      return total.median() / size;
    }
  }

  /**
   * @param unit what the size counts, plural ({@code mounts})
   * @param singular one of them ({@code mount})
   * @param costUnit the unit of the totals ({@code ms}, {@code requests})
   */
  CostCurve(String unit, String singular, String costUnit) {
    this.unit = unit;
    this.singular = singular;
    this.costUnit = costUnit;
  }

  /** Adds the runs at {@code size}; sizes must grow. */
  CostCurve add(long size, Samples total) {
    if (!points.isEmpty() && points.get(points.size() - 1).size() >= size) {
      throw new IllegalArgumentException(
          "sizes must grow: " + size + " after " + points.get(points.size() - 1).size());
    }
    points.add(new Point(size, total));
    return this;
  }

  /** The per-unit cost at the largest size over the one at the smallest (above 1: it grows). */
  double growth() {
    return points.get(points.size() - 1).perUnit() / points.get(0).perUnit();
  }

  /**
   * The marginal per-unit cost of the last step over the first step's; NaN with fewer than three
   * sizes or when the first step's difference of totals is within the noise (not above the wider
   * interquartile range of its two sizes).
   */
  double marginalGrowth() {
    if (points.size() < 3) {
      return Double.NaN;
    }
    double first = marginal(1);
    double last = marginal(points.size() - 1);
    Samples a = points.get(0).total();
    Samples b = points.get(1).total();
    double noise = Math.max(iqr(a), iqr(b));
    boolean aboveNoise = b.median() - a.median() > noise;
    return first > 0 && aboveNoise ? last / first : Double.NaN;
  }

  private static double iqr(Samples s) {
    return s.quantile(0.75) - s.quantile(0.25);
  }

  private double marginal(int i) {
    Point p = points.get(i);
    Point before = points.get(i - 1);
    return (p.total().median() - before.total().median()) / (p.size() - before.size());
  }

  /** The largest per-unit cost over the smallest size's. */
  double worstGrowth() {
    double first = points.get(0).perUnit();
    return points.stream().mapToDouble(Point::perUnit).max().orElseThrow() / first;
  }

  /** {@code met} or {@code missed}, against {@link #GOAL}. */
  String verdict() {
    double marginal = marginalGrowth();
    return worstGrowth() <= GOAL && (Double.isNaN(marginal) || marginal <= GOAL) ? "met" : "missed";
  }

  /** The table's lines, with a heading row naming {@code what}. */
  List<String> table(String what) {
    List<String> out = new ArrayList<>();
    if (points.isEmpty()) {
      return out;
    }
    out.add("| " + what + " | total | per " + singular() + " | marginal per " + singular()
        + " (from the size before) |");
    out.add("|---|---|---|---|");
    for (int i = 0; i < points.size(); i++) {
      Point p = points.get(i);
      String marginal = i == 0 ? "—" : perUnit(marginal(i));
      out.add("| " + String.format(Locale.ROOT, "%,d", p.size()) + " " + unit + " | "
          + p.total().summary() + " | " + perUnit(p.perUnit()) + " | " + marginal + " |");
    }
    out.add("");
    double marginal = marginalGrowth();
    out.add(String.format(
        Locale.ROOT,
        "Per-%s cost: at the largest size %.2f× the smallest size's, at most %.2f× it at any size;"
            + " marginal cost of the last step %s the first step's (goal: neither above %.1f×:"
            + " **%s**).",
        singular(),
        growth(),
        worstGrowth(),
        Double.isNaN(marginal)
            ? "not comparable with (the first step is within the noise)"
            : String.format(Locale.ROOT, "%.2f×", marginal),
        GOAL,
        verdict()));
    out.add("");
    return out;
  }

  private String perUnit(double value) {
    double abs = Math.abs(value);
    String text = abs >= 100
        ? String.format(Locale.ROOT, "%.0f", value)
        : abs >= 1
            ? String.format(Locale.ROOT, "%.2f", value)
            : String.format(Locale.ROOT, "%.4f", value);
    return text + " " + costUnit;
  }

  private String singular() {
    return singular;
  }
}
