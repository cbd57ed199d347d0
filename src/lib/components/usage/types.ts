// Props shared by the usage charts.

export interface ChartSeries {
	label: string;
	xs: number[];
	ys: number[];
}

export interface BarItem {
	key: string;
	label: string;
	/** Bar length (relative to the largest). */
	value: number;
	/** Text shown at the right ("$1.20", "unpriced"). */
	text: string;
	/** A second line under the label. */
	note?: string;
	unpriced?: boolean;
	onPick?: () => void;
}
