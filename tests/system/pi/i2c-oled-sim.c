// SPDX-License-Identifier: GPL-2.0
/*
 * The system test's I2C bus (tests/system/pi): an adapter numbered i2c-1, as a Pi's, on which two
 * SSD1306 displays answer at 0x3C and 0x3D as luma drives them. i2c-stub cannot stand in: it takes
 * SMBus transfers only, and luma sends a frame as one plain I2C write (I2C_RDWR).
 *
 * A write's first byte is its control byte: 0x00, the rest are commands; 0x40, the rest are data
 * for the display's RAM. The commands that place the data are interpreted (horizontal addressing
 * in the column and page window, 0x21 and 0x22, as luma's ssd1306 and the box's changed-pages
 * driver send them; 0xAE/0xAF, display off and on); every other command is skipped with its
 * arguments. Each display's RAM, 8 pages of 128 columns (a byte per column, its top pixel in bit
 * 0), is read from debugfs: i2c-oled-sim/3c and i2c-oled-sim/3d, and whether it is on from 3c-on
 * and 3d-on. Writing N to 3c-present or 3d-present unplugs that display, Y plugs it back: an
 * address where no display is plugged does not answer, -EREMOTEIO, as a Pi's I2C controller
 * (i2c-bcm2835) reports the NACK; a display that missed a transfer so has lost its power, and
 * comes back off with its RAM cleared. Nothing can be read back.
 *
 * Test only: the system test's VM, never a real box.
 */
#include <linux/debugfs.h>
#include <linux/i2c.h>
#include <linux/module.h>

#define PAGES 8
#define COLUMNS 128

struct oled {
	u16 address;
	u8 ram[PAGES * COLUMNS];
	u8 on;
	bool present;
	bool lost;		/* a transfer found it unplugged */
	u8 col_lo, col_hi, page_lo, page_hi;	/* the window */
	u8 col, page;				/* where the next data byte goes */
	struct debugfs_blob_wrapper blob;
};

static struct oled oleds[] = { { .address = 0x3c }, { .address = 0x3d } };
static struct dentry *folder;

static struct oled *oled_at(u16 address)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(oleds); i++)
		if (oleds[i].address == address)
			return &oleds[i];
	return NULL;
}

/* How many argument bytes follow an SSD1306 command. */
static int arguments(u8 command)
{
	switch (command) {
	case 0x21: case 0x22: case 0xa3:
		return 2;
	case 0x26: case 0x27:
		return 6;
	case 0x29: case 0x2a:
		return 5;
	case 0x20: case 0x81: case 0x8d: case 0xa8: case 0xd3: case 0xd5: case 0xd9: case 0xda: case 0xdb:
		return 1;
	default:
		return 0;
	}
}

static int commands(struct oled *oled, const u8 *bytes, int n)
{
	int i = 0;

	while (i < n) {
		u8 command = bytes[i];
		int needs = arguments(command);

		if (i + needs >= n)
			return -EIO;	/* a command cut short: luma never sends one */
		if (command == 0x21) {
			oled->col_lo = oled->col = bytes[i + 1] % COLUMNS;
			oled->col_hi = bytes[i + 2] % COLUMNS;
		} else if (command == 0x22) {
			oled->page_lo = oled->page = bytes[i + 1] % PAGES;
			oled->page_hi = bytes[i + 2] % PAGES;
		} else if (command == 0xae || command == 0xaf) {
			oled->on = command & 1;
		}
		i += 1 + needs;
	}
	return 0;
}

static void data(struct oled *oled, const u8 *bytes, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		oled->ram[oled->page * COLUMNS + oled->col] = bytes[i];
		if (oled->col++ != oled->col_hi)
			continue;
		oled->col = oled->col_lo;
		oled->page = oled->page == oled->page_hi ? oled->page_lo : oled->page + 1;
	}
}

/* A display as it powers up: off, its RAM cleared, the window the whole glass. */
static void power_on(struct oled *oled)
{
	memset(oled->ram, 0, sizeof(oled->ram));
	oled->on = 0;
	oled->lost = false;
	oled->col_lo = oled->col = oled->page_lo = oled->page = 0;
	oled->col_hi = COLUMNS - 1;
	oled->page_hi = PAGES - 1;
}

static int oled_xfer(struct i2c_adapter *adapter, struct i2c_msg *msgs, int num)
{
	int i, err;

	for (i = 0; i < num; i++) {
		struct oled *oled = oled_at(msgs[i].addr);

		if (!oled)
			return -EREMOTEIO;
		if (!oled->present) {
			oled->lost = true;
			return -EREMOTEIO;
		}
		if (oled->lost)
			power_on(oled);
		if (msgs[i].flags & I2C_M_RD)
			return -EOPNOTSUPP;
		if (msgs[i].len == 0)
			continue;	/* an SMBus quick write: i2cdetect's and molebox doctor's probe */
		if (msgs[i].buf[0] & 0x40) {
			data(oled, msgs[i].buf + 1, msgs[i].len - 1);
		} else {
			err = commands(oled, msgs[i].buf + 1, msgs[i].len - 1);
			if (err)
				return err;
		}
	}
	return num;
}

static u32 oled_functionality(struct i2c_adapter *adapter)
{
	return I2C_FUNC_I2C | I2C_FUNC_SMBUS_EMUL;
}

static const struct i2c_algorithm algorithm = {
	.master_xfer = oled_xfer,
	.functionality = oled_functionality,
};

static struct i2c_adapter adapter = {
	.owner = THIS_MODULE,
	.algo = &algorithm,
	.nr = 1,
	.name = "molebox test: two SSD1306 at 0x3c and 0x3d",
};

static int __init oled_init(void)
{
	char name[16];
	int i, err;

	folder = debugfs_create_dir("i2c-oled-sim", NULL);
	for (i = 0; i < ARRAY_SIZE(oleds); i++) {
		oleds[i].present = true;
		power_on(&oleds[i]);
		oleds[i].blob.data = oleds[i].ram;
		oleds[i].blob.size = sizeof(oleds[i].ram);
		snprintf(name, sizeof(name), "%02x", oleds[i].address);
		debugfs_create_blob(name, 0444, folder, &oleds[i].blob);
		snprintf(name, sizeof(name), "%02x-on", oleds[i].address);
		debugfs_create_u8(name, 0444, folder, &oleds[i].on);
		snprintf(name, sizeof(name), "%02x-present", oleds[i].address);
		debugfs_create_bool(name, 0644, folder, &oleds[i].present);
	}
	err = i2c_add_numbered_adapter(&adapter);
	if (err)
		debugfs_remove_recursive(folder);
	return err;
}

static void __exit oled_exit(void)
{
	i2c_del_adapter(&adapter);
	debugfs_remove_recursive(folder);
}

module_init(oled_init);
module_exit(oled_exit);
MODULE_DESCRIPTION("molebox system test: an I2C bus with two SSD1306 displays, their RAM in debugfs");
MODULE_LICENSE("GPL");
