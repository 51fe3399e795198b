package eval

import "math"

// z95 is the standard normal quantile for a two-sided 95% interval.
const z95 = 1.959963984540054

// Interval is a 95% confidence interval. It is undefined (OK false) when
// there are too few observations to estimate one.
type Interval struct {
	Low, High float64
	OK        bool
}

// Excludes0 reports whether the interval lies wholly above or below 0:
// the difference it estimates is significant at the 95% level.
func (iv Interval) Excludes0() bool { return iv.OK && (iv.Low > 0 || iv.High < 0) }

// Wilson is the Wilson score interval for k successes in n trials.
func Wilson(k, n int) Interval {
	if n == 0 {
		return Interval{}
	}
	p, nf := float64(k)/float64(n), float64(n)
	z2 := z95 * z95
	centre := (p + z2/(2*nf)) / (1 + z2/nf)
	half := z95 * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf)) / (1 + z2/nf)
	return Interval{Low: math.Max(0, centre-half), High: math.Min(1, centre+half), OK: true}
}

// Newcombe is the interval for the difference of proportions
// kb/nb − ka/na by Newcombe's hybrid score method (his method 10), built
// from the two Wilson intervals.
func Newcombe(ka, na, kb, nb int) Interval {
	if na == 0 || nb == 0 {
		return Interval{}
	}
	pa, pb := float64(ka)/float64(na), float64(kb)/float64(nb)
	a, b := Wilson(ka, na), Wilson(kb, nb)
	d := pb - pa
	return Interval{
		Low:  d - math.Sqrt((pb-b.Low)*(pb-b.Low)+(a.High-pa)*(a.High-pa)),
		High: d + math.Sqrt((b.High-pb)*(b.High-pb)+(pa-a.Low)*(pa-a.Low)),
		OK:   true,
	}
}

// Mean is the mean of xs and its Student t 95% interval (undefined for
// fewer than two values).
func Mean(xs []float64) (float64, Interval) {
	n := len(xs)
	if n == 0 {
		return 0, Interval{}
	}
	m := 0.0
	for _, x := range xs {
		m += x
	}
	m /= float64(n)
	if n < 2 {
		return m, Interval{}
	}
	ss := 0.0
	for _, x := range xs {
		ss += (x - m) * (x - m)
	}
	half := TQuantile(0.975, float64(n-1)) * math.Sqrt(ss/float64(n-1)/float64(n))
	return m, Interval{Low: m - half, High: m + half, OK: true}
}

// PairedDiff is the mean of b[i] − a[i] and its paired Student t 95%
// interval; a and b have the same length, pair i being the same task and
// run number under the two settings.
func PairedDiff(a, b []float64) (float64, Interval) {
	d := make([]float64, min(len(a), len(b)))
	for i := range d {
		d[i] = b[i] - a[i]
	}
	return Mean(d)
}

// TQuantile is the p quantile of Student's t distribution with df degrees
// of freedom, found by bisection on its distribution function.
func TQuantile(p, df float64) float64 {
	if p == 0.5 {
		return 0
	}
	if p < 0.5 {
		return -TQuantile(1-p, df)
	}
	lo, hi := 0.0, 1.0
	for tCDF(hi, df) < p {
		hi *= 2
	}
	for range 100 {
		mid := (lo + hi) / 2
		if tCDF(mid, df) < p {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// tCDF is P(T ≤ t) for t ≥ 0: 1 − I_x(df/2, 1/2)/2 with x = df/(df+t²).
func tCDF(t, df float64) float64 {
	return 1 - 0.5*regIncBeta(df/(df+t*t), df/2, 0.5)
}

// regIncBeta is the regularized incomplete beta function I_x(a, b), by
// its continued fraction (modified Lentz).
func regIncBeta(x, a, b float64) float64 {
	switch {
	case x <= 0:
		return 0
	case x >= 1:
		return 1
	case x > (a+1)/(a+b+2):
		return 1 - regIncBeta(1-x, b, a)
	}
	la, _ := math.Lgamma(a)
	lb, _ := math.Lgamma(b)
	lab, _ := math.Lgamma(a + b)
	front := math.Exp(lab-la-lb+a*math.Log(x)+b*math.Log(1-x)) / a
	return front * betaFraction(x, a, b)
}

func betaFraction(x, a, b float64) float64 {
	const tiny, eps = 1e-300, 1e-15
	c, d := 1.0, 1-(a+b)*x/(a+1)
	if math.Abs(d) < tiny {
		d = tiny
	}
	d = 1 / d
	f := d
	for m := 1; m <= 300; m++ {
		fm := float64(m)
		for _, num := range []float64{
			fm * (b - fm) * x / ((a + 2*fm - 1) * (a + 2*fm)),
			-(a + fm) * (a + b + fm) * x / ((a + 2*fm) * (a + 2*fm + 1)),
		} {
			d = 1 + num*d
			if math.Abs(d) < tiny {
				d = tiny
			}
			c = 1 + num/c
			if math.Abs(c) < tiny {
				c = tiny
			}
			d = 1 / d
			f *= d * c
		}
		if math.Abs(d*c-1) < eps {
			break
		}
	}
	return f
}
