// Serenissima's words for the phone's forms (the sealed bid, the sailors' split, a galley's move,
// buying, sales), Dutch and English: they load with the forms, after the first screenful.
import { extend } from '../../i18n.js';

extend({
  en: {
    se_split_help: 'Home port and galleys together hold all {n} sailors.', se_split_send: 'Place sailors',
    se_split_left: '{n} left to place', se_split_over: '{n} too many', se_bid_h: 'Your sealed bid',
    se_bid_help: 'Nobody else sees your bid until every bid is in.', se_bid_label: 'Bid in ducats (0 to {n})',
    se_bid_send: 'Place bid', se_bid_change: 'Change bid', se_your_bid: 'Your bid: {n} ducats — only on this phone.',
    se_move_h: 'Move a galley', se_which_galley: 'Galley', se_move_to: 'Where it lies now', se_ports: 'Ports',
    se_seas: 'Sea areas', se_move_send: 'Move', se_buy_h: 'Buy goods', se_port: 'Port', se_good: 'Good',
    se_count: 'How many', se_price: '{price} ducats each, {total} in all', se_buy_send: 'Buy',
    se_no_port: 'None of your galleys lies by a port.', se_sales_h: 'Sales between players', se_sale_to: 'Sell to',
    se_sale_price: 'Price in ducats (all together)', se_sale_send: 'Offer the sale',
  },
  nl: {
    se_split_help: 'Thuishaven en galeien samen houden alle {n} zeelui.', se_split_send: 'Zeelui plaatsen',
    se_split_left: 'nog {n} te plaatsen', se_split_over: '{n} te veel', se_bid_h: 'Jouw geheime bod',
    se_bid_help: 'Niemand anders ziet je bod voor alle biedingen binnen zijn.',
    se_bid_label: 'Bod in dukaten (0 tot {n})', se_bid_send: 'Bod plaatsen', se_bid_change: 'Bod wijzigen',
    se_your_bid: 'Jouw bod: {n} dukaten — alleen op deze telefoon.', se_move_h: 'Galei verzetten',
    se_which_galley: 'Galei', se_move_to: 'Waar hij nu ligt', se_ports: 'Havens', se_seas: 'Zeevelden',
    se_move_send: 'Verzetten', se_buy_h: 'Handelswaren kopen', se_port: 'Haven', se_good: 'Goed', se_count: 'Hoeveel',
    se_price: '{price} dukaten per stuk, {total} in totaal', se_buy_send: 'Kopen',
    se_no_port: 'Geen van je galeien ligt bij een haven.', se_sales_h: 'Verkoop tussen spelers',
    se_sale_to: 'Verkopen aan', se_sale_price: 'Prijs in dukaten (alles samen)', se_sale_send: 'Verkoop aanbieden',
  },
});
