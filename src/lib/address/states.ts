/**
 * The states (provinces, prefectures …) of the countries that have a list. Codes follow WooCommerce
 * (mostly the ISO 3166-2 subdivision suffix), so orders are portable; names are WooCommerce's English
 * ones. The engine offers and checks these (countryStates, the checkout), and the address formatter
 * prints a state's name instead of its code.
 */

export type CountryStateEntry = { code: string; name: string };

const parse = (list: string): CountryStateEntry[] =>
  list
    .trim()
    .split(/\s*;\s*/)
    .filter(Boolean)
    .map((pair) => {
      const [code, name] = pair.split('=');
      return { code: code!.trim(), name: name!.trim() };
    });

const STATES: Record<string, CountryStateEntry[]> = {
  US: parse(`AL=Alabama; AK=Alaska; AZ=Arizona; AR=Arkansas; CA=California; CO=Colorado; CT=Connecticut; DE=Delaware;
    DC=District Of Columbia; FL=Florida; GA=Georgia; HI=Hawaii; ID=Idaho; IL=Illinois; IN=Indiana; IA=Iowa; KS=Kansas;
    KY=Kentucky; LA=Louisiana; ME=Maine; MD=Maryland; MA=Massachusetts; MI=Michigan; MN=Minnesota; MS=Mississippi;
    MO=Missouri; MT=Montana; NE=Nebraska; NV=Nevada; NH=New Hampshire; NJ=New Jersey; NM=New Mexico; NY=New York;
    NC=North Carolina; ND=North Dakota; OH=Ohio; OK=Oklahoma; OR=Oregon; PA=Pennsylvania; RI=Rhode Island;
    SC=South Carolina; SD=South Dakota; TN=Tennessee; TX=Texas; UT=Utah; VT=Vermont; VA=Virginia; WA=Washington;
    WV=West Virginia; WI=Wisconsin; WY=Wyoming; AA=Armed Forces (AA); AE=Armed Forces (AE); AP=Armed Forces (AP);
    AS=American Samoa; GU=Guam; MP=Northern Mariana Islands; PR=Puerto Rico; UM=US Minor Outlying Islands; VI=US Virgin Islands`),
  CA: parse(`AB=Alberta; BC=British Columbia; MB=Manitoba; NB=New Brunswick; NL=Newfoundland and Labrador;
    NT=Northwest Territories; NS=Nova Scotia; NU=Nunavut; ON=Ontario; PE=Prince Edward Island; QC=Quebec;
    SK=Saskatchewan; YT=Yukon Territory`),
  BR: parse(`AC=Acre; AL=Alagoas; AP=Amapá; AM=Amazonas; BA=Bahia; CE=Ceará; DF=Distrito Federal; ES=Espírito Santo;
    GO=Goiás; MA=Maranhão; MT=Mato Grosso; MS=Mato Grosso do Sul; MG=Minas Gerais; PA=Pará; PB=Paraíba; PR=Paraná;
    PE=Pernambuco; PI=Piauí; RJ=Rio de Janeiro; RN=Rio Grande do Norte; RS=Rio Grande do Sul; RO=Rondônia; RR=Roraima;
    SC=Santa Catarina; SP=São Paulo; SE=Sergipe; TO=Tocantins`),
  AU: parse(`ACT=Australian Capital Territory; NSW=New South Wales; NT=Northern Territory; QLD=Queensland;
    SA=South Australia; TAS=Tasmania; VIC=Victoria; WA=Western Australia`),
  IN: parse(`AP=Andhra Pradesh; AR=Arunachal Pradesh; AS=Assam; BR=Bihar; CT=Chhattisgarh; GA=Goa; GJ=Gujarat;
    HR=Haryana; HP=Himachal Pradesh; JK=Jammu and Kashmir; JH=Jharkhand; KA=Karnataka; KL=Kerala; LA=Ladakh;
    LD=Lakshadeep; MP=Madhya Pradesh; MH=Maharashtra; MN=Manipur; ML=Meghalaya; MZ=Mizoram; NL=Nagaland; OR=Odisha;
    PB=Punjab; RJ=Rajasthan; SK=Sikkim; TN=Tamil Nadu; TS=Telangana; TR=Tripura; UK=Uttarakhand; UP=Uttar Pradesh;
    WB=West Bengal; AN=Andaman and Nicobar Islands; CH=Chandigarh; DH=Dadra and Nagar Haveli and Daman and Diu;
    DL=Delhi; PY=Puducherry`),
  MX: parse(`DF=Ciudad de México; JA=Jalisco; NL=Nuevo León; AG=Aguascalientes; BC=Baja California;
    BS=Baja California Sur; CM=Campeche; CS=Chiapas; CH=Chihuahua; CO=Coahuila; CL=Colima; DG=Durango; GT=Guanajuato;
    GR=Guerrero; HG=Hidalgo; MX=Estado de México; MI=Michoacán; MO=Morelos; NA=Nayarit; OA=Oaxaca; PU=Puebla;
    QT=Querétaro; QR=Quintana Roo; SL=San Luis Potosí; SI=Sinaloa; SO=Sonora; TB=Tabasco; TM=Tamaulipas; TL=Tlaxcala;
    VE=Veracruz; YU=Yucatán; ZA=Zacatecas`),
  DE: parse(`DE-BW=Baden-Württemberg; DE-BY=Bavaria; DE-BE=Berlin; DE-BB=Brandenburg; DE-HB=Bremen; DE-HH=Hamburg;
    DE-HE=Hesse; DE-MV=Mecklenburg-Vorpommern; DE-NI=Lower Saxony; DE-NW=North Rhine-Westphalia;
    DE-RP=Rhineland-Palatinate; DE-SL=Saarland; DE-SN=Saxony; DE-ST=Saxony-Anhalt; DE-SH=Schleswig-Holstein;
    DE-TH=Thuringia`),
  ES: parse(`C=A Coruña; VI=Araba/Álava; AB=Albacete; A=Alicante; AL=Almería; O=Asturias; AV=Ávila; BA=Badajoz;
    PM=Baleares; B=Barcelona; BU=Burgos; CC=Cáceres; CA=Cádiz; S=Cantabria; CS=Castellón; CE=Ceuta; CR=Ciudad Real;
    CO=Córdoba; CU=Cuenca; GI=Girona; GR=Granada; GU=Guadalajara; SS=Gipuzkoa; H=Huelva; HU=Huesca; J=Jaén;
    LO=La Rioja; GC=Las Palmas; LE=León; L=Lleida; LU=Lugo; M=Madrid; MA=Málaga; ML=Melilla; MU=Murcia; NA=Navarra;
    OR=Ourense; P=Palencia; PO=Pontevedra; SA=Salamanca; TF=Santa Cruz de Tenerife; SG=Segovia; SE=Sevilla; SO=Soria;
    T=Tarragona; TE=Teruel; TO=Toledo; V=Valencia; VA=Valladolid; BI=Biscay; ZA=Zamora; Z=Zaragoza`),
  IT: parse(`AG=Agrigento; AL=Alessandria; AN=Ancona; AO=Aosta; AR=Arezzo; AP=Ascoli Piceno; AT=Asti; AV=Avellino;
    BA=Bari; BT=Barletta-Andria-Trani; BL=Belluno; BN=Benevento; BG=Bergamo; BI=Biella; BO=Bologna; BZ=Bolzano;
    BS=Brescia; BR=Brindisi; CA=Cagliari; CL=Caltanissetta; CB=Campobasso; CE=Caserta; CT=Catania; CZ=Catanzaro;
    CH=Chieti; CO=Como; CS=Cosenza; CR=Cremona; KR=Crotone; CN=Cuneo; EN=Enna; FM=Fermo; FE=Ferrara; FI=Firenze;
    FG=Foggia; FC=Forlì-Cesena; FR=Frosinone; GE=Genova; GO=Gorizia; GR=Grosseto; IM=Imperia; IS=Isernia;
    SP=La Spezia; AQ=L'Aquila; LT=Latina; LE=Lecce; LC=Lecco; LI=Livorno; LO=Lodi; LU=Lucca; MC=Macerata; MN=Mantova;
    MS=Massa-Carrara; MT=Matera; ME=Messina; MI=Milano; MO=Modena; MB=Monza e della Brianza; NA=Napoli; NO=Novara;
    NU=Nuoro; OR=Oristano; PD=Padova; PA=Palermo; PR=Parma; PV=Pavia; PG=Perugia; PU=Pesaro e Urbino; PE=Pescara;
    PC=Piacenza; PI=Pisa; PT=Pistoia; PN=Pordenone; PZ=Potenza; PO=Prato; RG=Ragusa; RA=Ravenna; RC=Reggio Calabria;
    RE=Reggio Emilia; RI=Rieti; RN=Rimini; RM=Roma; RO=Rovigo; SA=Salerno; SS=Sassari; SV=Savona; SI=Siena;
    SR=Siracusa; SO=Sondrio; SU=Sud Sardegna; TA=Taranto; TE=Teramo; TR=Terni; TO=Torino; TP=Trapani; TN=Trento;
    TV=Treviso; TS=Trieste; UD=Udine; VA=Varese; VE=Venezia; VB=Verbano-Cusio-Ossola; VC=Vercelli; VR=Verona;
    VV=Vibo Valentia; VI=Vicenza; VT=Viterbo`),
  JP: parse(`JP01=Hokkaido; JP02=Aomori; JP03=Iwate; JP04=Miyagi; JP05=Akita; JP06=Yamagata; JP07=Fukushima;
    JP08=Ibaraki; JP09=Tochigi; JP10=Gunma; JP11=Saitama; JP12=Chiba; JP13=Tokyo; JP14=Kanagawa; JP15=Niigata;
    JP16=Toyama; JP17=Ishikawa; JP18=Fukui; JP19=Yamanashi; JP20=Nagano; JP21=Gifu; JP22=Shizuoka; JP23=Aichi;
    JP24=Mie; JP25=Shiga; JP26=Kyoto; JP27=Osaka; JP28=Hyogo; JP29=Nara; JP30=Wakayama; JP31=Tottori; JP32=Shimane;
    JP33=Okayama; JP34=Hiroshima; JP35=Yamaguchi; JP36=Tokushima; JP37=Kagawa; JP38=Ehime; JP39=Kochi;
    JP40=Fukuoka; JP41=Saga; JP42=Nagasaki; JP43=Kumamoto; JP44=Oita; JP45=Miyazaki; JP46=Kagoshima; JP47=Okinawa`),
};

/** A country's states; [] when the shop knows none (the state is then free text). */
export function statesOf(country: string): CountryStateEntry[] {
  return STATES[country] ?? [];
}

/** The name of a state given by its code (any case); the value as given when it is not in the list. */
export function stateName(country: string, state: string): string {
  const wanted = state.trim().toUpperCase();
  return statesOf(country).find((s) => s.code.toUpperCase() === wanted)?.name ?? state;
}
